import { createReadStream, createWriteStream, renameSync, rmSync, statSync } from 'node:fs'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { importSnapshot, openStore, readSnapshotFile, snapshotFileStream } from '@weft/store'
import { httpUrl, networkAndProfile } from '../cli/arguments.js'
import type { Flags, Values } from '../cli/command.js'
import { type CliIo, writeLine } from '../cli/io.js'
import { UsageError, WeftHttpError } from '../errors.js'

/** One line for the overview. */
export const summary = 'export a store to a snapshot file, or import one into a new store'

/** `weft snapshot` takes its action as a word: export or import. */
export const positionals = true

/** The flags of `weft snapshot`. */
export const flags: Flags = {
  from: { type: 'string' },
  data: { type: 'string' },
  out: { type: 'string' },
  in: { type: 'string' },
  network: { type: 'string' },
}

/** The text of `weft snapshot --help`. */
export const help = `Usage: weft snapshot export --from URL --out FILE
       weft snapshot export --data DIR --network NAME --out FILE
       weft snapshot import --in FILE --data DIR [--network NAME]

export writes a consistent point-in-time copy of a store to FILE (gzip, with a block count and a
SHA-256): from a running node's admin listener (weft-server --admin-port; the node keeps serving),
or from the folder of a store no process holds. The file is written beside FILE and moved there
once read back whole.
import writes a new store in DIR (missing or empty) from FILE: every block validated, the count and
checksum verified, the snapshot's cut adopted, so that weft-server --upstream continues from it. A
cut-short or altered file is refused and leaves nothing behind.
Prints one JSON line when done ({"event":"exported",...} or {"event":"imported",...}).

      --from URL       the node's admin listener (e.g. http://127.0.0.1:1849)
      --data DIR       the store's folder
      --network NAME   the store's network (export --data: required; import: the file must be of it)
      --out FILE       the snapshot file to write (export)
      --in FILE        the snapshot file to read (import)
  -h, --help           show this help`

const required = (values: Values, flag: string): string => {
  const value = values[flag] as string | undefined
  if (!value) throw new UsageError(`--${flag} is required`)
  return value
}

async function* snapshotResponse(url: string): AsyncGenerator<Buffer> {
  const target = `${url.replace(/\/$/, '')}/snapshot`
  const response = await fetch(target)
  if (!response.ok || response.body === null) throw new WeftHttpError(response.status, (await response.text()).slice(0, 200), target)
  yield* Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>) as AsyncIterable<Buffer>
}

async function exportSnapshot(values: Values, io: CliIo): Promise<void> {
  const out = required(values, 'out')
  const partial = `${out}.partial`
  const started = performance.now()
  try {
    if (values.from !== undefined) {
      if (values.data !== undefined) throw new UsageError('give --from or --data, not both')
      await pipeline(snapshotResponse(httpUrl('--from', values.from as string)), createWriteStream(partial))
    } else {
      const data = required(values, 'data')
      const { network } = networkAndProfile(values)
      if (network === undefined) throw new UsageError('--network is required with --data')
      const store = await openStore({ path: data, network })
      try {
        await pipeline(snapshotFileStream(store.snapshot()), createWriteStream(partial))
      } finally {
        await store.close()
      }
    }
    // Read back whole before it takes the name: a file named FILE is a complete snapshot.
    let blocks = 0
    for await (const part of readSnapshotFile(createReadStream(partial))) if (part.kind === 'end') blocks = part.blocks
    renameSync(partial, out)
    const seconds = (performance.now() - started) / 1000
    await writeLine(io.stdout, {
      event: 'exported',
      file: out,
      blocks,
      bytes: statSync(out).size,
      seconds,
      blocksPerSecond: Math.round(blocks / seconds),
    })
  } finally {
    rmSync(partial, { force: true })
  }
}

async function importFile(values: Values, io: CliIo): Promise<void> {
  const file = required(values, 'in')
  const data = required(values, 'data')
  const { network } = networkAndProfile(values)
  const started = performance.now()
  const imported = await importSnapshot(createReadStream(file), { path: data, ...(network === undefined ? {} : { network }) })
  const seconds = (performance.now() - started) / 1000
  await writeLine(io.stdout, {
    event: 'imported',
    data,
    network: imported.network,
    blocks: imported.blocks,
    seconds,
    blocksPerSecond: Math.round(imported.blocks / seconds),
  })
}

/** Exports or imports, as the first word says. */
export async function run(values: Values, io: CliIo, words: readonly string[]): Promise<void> {
  const [action, ...extra] = words
  if (extra.length > 0) throw new UsageError(`Expected one action, received also ${JSON.stringify(extra.join(' '))}`)
  if (action === 'export') return exportSnapshot(values, io)
  if (action === 'import') return importFile(values, io)
  throw new UsageError(`Expected the action export or import, received ${action === undefined ? 'none' : JSON.stringify(action)}`)
}
