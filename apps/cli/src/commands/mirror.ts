import type { CliIo, Flags, Values } from '@weft/command-line'
import { UsageError } from '@weft/command-line'
import { createIngest, discoverUpstream, type IngestEvent } from '@weft/ingest'
import { openStore } from '@weft/store'
import cliProgress from 'cli-progress'
import { connectionFlags, httpUrl, integer, networkAndProfile } from '../cli/arguments.js'
import { writeLine } from '../cli/io.js'

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

// A request that fails this often, over its retries, ends a --once copy (following retries for good).
const onceAttempts = 5

/** The NDJSON line of an ingest event: the mirror's own event names and fields, kept as they were. */
function lineOf(event: IngestEvent): Record<string, unknown> {
  const { type, ...fields } = event
  return { event: type, ...fields }
}

/**
 * Opens the store in `--data` for the upstream's network, follows the upstream into it with
 * `@weft/ingest` (the store takes the upstream's cut), and prints the events as NDJSON.
 */
export async function run(values: Values, io: CliIo): Promise<void> {
  const from = values.from as string | undefined
  const data = values.data as string | undefined
  if (!from) throw new UsageError('--from is required')
  if (!data) throw new UsageError('--data is required')
  const url = httpUrl('--from', from)
  const { network: givenNetwork, profile } = networkAndProfile(values)
  const once = values.once === true
  const pageSize = values['page-size'] !== undefined ? integer('--page-size', values['page-size'] as string, 1) : undefined
  const resumeMargin = values['resume-margin'] !== undefined ? integer('--resume-margin', values['resume-margin'] as string) : undefined
  const network = givenNetwork ?? (await discoverUpstream(url, { profile })).network
  const bar = io.stderr.isTTY
    ? new cliProgress.SingleBar(
        { stream: io.stderr, format: 'mirror [{bar}] {percentage}% | {value}/{total} heights | eta {eta_formatted}' },
        cliProgress.Presets.shades_classic,
      )
    : undefined
  const writes: Promise<void>[] = []
  const store = await openStore({ path: data, network, cutPolicy: 'adopted' })
  const ingest = createIngest({
    store,
    upstreams: [url],
    profile,
    pageSize,
    resumeMargin,
    follow: !once,
    failFast: true,
    attempts: once ? onceAttempts : undefined,
    checkResponses: values.validate === true,
    onEvent: (event) => {
      if (event.type === 'synced') bar?.stop()
      writes.push(writeLine(io.stdout, lineOf(event)))
    },
    onProgress: (done, total) => {
      if (done === 0) bar?.start(total, 0)
      else bar?.update(done)
    },
  })
  const stop = (): void => void ingest.stop()
  io.signal?.addEventListener('abort', stop, { once: true })
  try {
    if (io.signal?.aborted) return
    await ingest.start()
    await ingest.done
  } finally {
    io.signal?.removeEventListener('abort', stop)
    await ingest.stop()
    bar?.stop()
    await store.close()
  }
  await Promise.all(writes)
}
