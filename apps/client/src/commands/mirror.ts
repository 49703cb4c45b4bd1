import { openStore } from '@weft/store'
import cliProgress from 'cli-progress'
import { connectionFlags, httpUrl, integer, networkAndProfile } from '../cli/arguments.js'
import type { Flags, Values } from '../cli/command.js'
import { type CliIo, writeLine } from '../cli/io.js'
import { UsageError } from '../errors.js'
import { createClient } from '../index.js'
import { mirror } from '../mirror/mirror.js'
import type { MirrorOptions } from '../mirror/types.js'

/** One line for the overview. */
export const summary = 'copy every block of an upstream node into a local store, then follow it'

/** The flags of `weft mirror`. */
export const flags: Flags = {
  from: { type: 'string' },
  data: { type: 'string' },
  once: { type: 'boolean' },
  'page-size': { type: 'string' },
  'resume-margin': { type: 'string' },
  network: connectionFlags.network as Flags[string],
  profile: connectionFlags.profile as Flags[string],
  validate: { type: 'boolean' },
}

/** The text of `weft mirror --help`. */
export const help = `Usage: weft mirror --from URL --data DIR [--once] [options]

Copies every block of every chain, orphans included, from the upstream node into the store in DIR,
each block validated on insert. Resumes where an earlier run stopped. Then follows the upstream
(header updates) until interrupted, or exits after the copy with --once.
Prints one JSON line per copied page ({"event":"page",...}), one when the copy is done
({"event":"synced",...}) and, while following, one per new block ({"event":"inserted",...}).
A progress bar is drawn on stderr when it is a terminal.

      --from URL           the upstream node's root URL (required)
      --data DIR           the local store's folder (required)
      --once               exit after the copy
      --page-size N        blocks asked per request (default 360)
      --resume-margin N    heights re-read below each local head on resume (default 16)
      --network NAME       the upstream's network (default: from its /info)
      --profile NAME       the upstream's profile (default: from its version header)
      --validate           check every upstream response against the schemas
  -h, --help               show this help`

/** Opens the store in `--data` for the upstream's network, mirrors into it, and prints the events as NDJSON. */
export async function run(values: Values, io: CliIo): Promise<void> {
  const from = values.from as string | undefined
  const data = values.data as string | undefined
  if (!from) throw new UsageError('--from is required')
  if (!data) throw new UsageError('--data is required')
  const upstream = createClient({ url: httpUrl('--from', from), validate: values.validate === true, ...networkAndProfile(values) })
  const options: MirrorOptions = {
    once: values.once === true,
    ...(values['page-size'] !== undefined ? { pageSize: integer('--page-size', values['page-size'] as string, 1) } : {}),
    ...(values['resume-margin'] !== undefined ? { resumeMargin: integer('--resume-margin', values['resume-margin'] as string) } : {}),
    ...(io.signal ? { signal: io.signal } : {}),
  }
  const bar = io.stderr.isTTY
    ? new cliProgress.SingleBar(
        { stream: io.stderr, format: 'mirror [{bar}] {percentage}% | {value}/{total} heights | eta {eta_formatted}' },
        cliProgress.Presets.shades_classic,
      )
    : undefined
  const writes: Promise<void>[] = []
  const { network } = await upstream.target()
  // The mirror copies chain by chain, so a block may come before the neighbours it names.
  const store = await openStore({ path: data, network, checkBraiding: false })
  try {
    await mirror(upstream, store, {
      ...options,
      onEvent: (event) => {
        if (event.event === 'synced') bar?.stop()
        writes.push(writeLine(io.stdout, event))
      },
      ...(bar
        ? {
            onProgress: (done: number, total: number) => {
              if (done === 0) bar.start(total, 0)
              else bar.update(done)
            },
          }
        : {}),
    })
  } finally {
    bar?.stop()
    await store.close()
  }
  await Promise.all(writes)
}
