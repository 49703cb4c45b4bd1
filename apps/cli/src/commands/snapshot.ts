import { randomBytes } from 'node:crypto'
import { createReadStream, createWriteStream, existsSync, renameSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createFetchTransport } from '@weft/api'
import { type CliIo, type Flags, UsageError, type Values, writeText } from '@weft/command-line'
import { type ChainStore, importSnapshot, openStore, readSnapshotFile, snapshotFileStream } from '@weft/store'
import cliProgress from 'cli-progress'
import { httpUrl, networkAndProfile } from '../cli/arguments.js'
import { writeLine } from '../cli/io.js'

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
or from the folder of a store no process holds. The file is written beside FILE
(FILE.partial-<random>) and takes its name once read back whole.
import writes a new store in DIR (missing or empty) from FILE: every block validated, the count and
checksum verified, the snapshot's cut adopted, so that weft-server --upstream continues from it. The
store is built in a dot-folder inside DIR and its files moved up when complete. A cut-short or
altered file is refused and leaves nothing behind.
Progress goes to stderr: a bar on a terminal, else a line every 10 seconds. Ctrl-C stops either
command, leaving nothing behind. Prints one JSON line when done ({"event":"exported",...} or
{"event":"imported",...}).

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

// The admin listener's GET /snapshot, as it arrives; an answer outside 2xx is @weft/api's HTTP error.
async function* snapshotResponse(url: string, signal: AbortSignal | undefined): AsyncGenerator<Buffer> {
  const { body } = await createFetchTransport().open({ url: `${url.replace(/\/$/, '')}/snapshot`, signal })
  if (body !== null) yield* Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>) as AsyncIterable<Buffer>
}

// Bytes of `source` as they pass, told to `onBytes` with the total so far.
async function* counted(source: AsyncIterable<Buffer>, onBytes: (total: number) => void): AsyncGenerator<Buffer> {
  let total = 0
  for await (const chunk of source) {
    total += chunk.length
    onBytes(total)
    yield chunk
  }
}

const mib = (bytes: number): string => (bytes / 2 ** 20).toFixed(1)

// Seconds between progress lines when stderr is not a terminal (a log).
const progressEverySeconds = 10

/**
 * The progress of one step on stderr: its start as a line, then a bar on a terminal, or a line every
 * ten seconds elsewhere (a log). `total`: the bytes the step will have read, when known.
 */
async function stepProgress(
  io: CliIo,
  step: string,
  total?: number,
): Promise<{ update(bytes: number, detail?: string): void; stop(): void }> {
  await writeText(io.stderr, `weft snapshot: ${step}${total === undefined ? '' : ` (${mib(total)} MiB)`}\n`)
  const text = (bytes: number, detail: string): string => `${mib(bytes)}${total === undefined ? '' : ` of ${mib(total)}`} MiB${detail}`
  if (io.stderr.isTTY) {
    const format =
      total === undefined ? 'snapshot | {text} | {duration_formatted}' : 'snapshot [{bar}] {percentage}% | {text} | eta {eta_formatted}'
    const bar = new cliProgress.SingleBar({ stream: io.stderr, format }, cliProgress.Presets.shades_classic)
    bar.start(total ?? 1, 0, { text: text(0, '') })
    return {
      update: (bytes, detail = '') => bar.update(total === undefined ? 0 : bytes, { text: text(bytes, detail) }),
      stop: () => bar.stop(),
    }
  }
  let shownAt = performance.now()
  return {
    update: (bytes, detail = '') => {
      if (performance.now() - shownAt < progressEverySeconds * 1000) return
      shownAt = performance.now()
      void writeText(io.stderr, `weft snapshot: ${step}: ${text(bytes, detail)}\n`)
    },
    stop: () => undefined,
  }
}

// A stop by a signal (Ctrl-C) as the command's failure: it says what became of the output.
function stoppedOr(error: unknown, io: CliIo, what: string): unknown {
  return io.signal?.aborted ? new Error(`Stopped by a signal before the end: ${what}`, { cause: error }) : error
}

async function exportSnapshot(values: Values, io: CliIo): Promise<void> {
  const out = required(values, 'out')
  // A name of its own: another export to the same file, or a file of that name, is not touched.
  const partial = `${out}.partial-${randomBytes(4).toString('hex')}`
  const started = performance.now()
  const { signal } = io
  try {
    let source: AsyncIterable<Buffer>
    let store: ChainStore | undefined
    if (values.from !== undefined) {
      if (values.data !== undefined) throw new UsageError('give --from or --data, not both')
      source = snapshotResponse(httpUrl('--from', values.from as string), signal)
    } else {
      const data = required(values, 'data')
      const { network } = networkAndProfile(values)
      if (network === undefined) throw new UsageError('--network is required with --data')
      // An export reads a store: a folder without one is a mistake, not an empty store to export.
      if (!existsSync(join(data, 'CURRENT'))) throw new UsageError(`--data ${data} holds no Weft store (no LevelDB CURRENT file there)`)
      store = await openStore({ path: data, network })
      source = snapshotFileStream(store.snapshot())
    }
    try {
      const writing = await stepProgress(io, `writing ${partial}`)
      const file = createWriteStream(partial)
      try {
        await pipeline(
          counted(source, (bytes) => writing.update(bytes)),
          file,
          ...(signal === undefined ? [] : [{ signal }]),
        )
      } finally {
        // A pipeline stopped at once (a signal already aborted) ends before the file's open does,
        // and the open creates the file after it: it is removed below only once it is closed.
        if (!file.closed) await new Promise<void>((resolve) => file.once('close', () => resolve()))
      }
      writing.stop()
    } finally {
      await store?.close()
    }
    // Read back whole before it takes the name: a file named FILE is a complete snapshot.
    const checking = await stepProgress(io, `checking ${partial}`, statSync(partial).size)
    let blocks = 0
    for await (const part of readSnapshotFile(counted(createReadStream(partial), (bytes) => checking.update(bytes)))) {
      signal?.throwIfAborted()
      if (part.kind === 'end') blocks = part.blocks
    }
    checking.stop()
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
  } catch (error) {
    throw stoppedOr(error, io, `${out} was not written`)
  } finally {
    rmSync(partial, { force: true })
  }
}

async function importFile(values: Values, io: CliIo): Promise<void> {
  const file = required(values, 'in')
  const data = required(values, 'data')
  const { network } = networkAndProfile(values)
  const size = fileSize(file)
  const started = performance.now()
  let blocks = 0
  const reading = await stepProgress(io, `importing ${file} into ${data}`, size)
  try {
    const input = counted(createReadStream(file), (bytes) => reading.update(bytes, `, ${blocks.toLocaleString('en-US')} blocks written`))
    const imported = await importSnapshot(input, {
      path: data,
      ...(network === undefined ? {} : { network }),
      ...(io.signal === undefined ? {} : { signal: io.signal }),
      onProgress: (written) => {
        blocks = written
      },
    })
    reading.stop()
    const seconds = (performance.now() - started) / 1000
    await writeLine(io.stdout, {
      event: 'imported',
      data,
      network: imported.network,
      blocks: imported.blocks,
      seconds,
      blocksPerSecond: Math.round(imported.blocks / seconds),
    })
  } catch (error) {
    reading.stop()
    throw stoppedOr(error, io, `nothing was written in ${data}`)
  }
}

// The size of the snapshot file `--in` names; a usage error when there is none.
function fileSize(file: string): number {
  try {
    const stat = statSync(file)
    if (stat.isFile()) return stat.size
    throw new UsageError(`--in ${file} is not a file`)
  } catch (error) {
    if (error instanceof UsageError) throw error
    throw new UsageError(`--in ${file} cannot be read: ${(error as Error).message}`, { cause: error })
  }
}

/** Exports or imports, as the first word says. */
export async function run(values: Values, io: CliIo, words: readonly string[]): Promise<void> {
  const [action, ...extra] = words
  if (extra.length > 0) throw new UsageError(`Expected one action, received also ${JSON.stringify(extra.join(' '))}`)
  if (action === 'export') return exportSnapshot(values, io)
  if (action === 'import') return importFile(values, io)
  throw new UsageError(`Expected the action export or import, received ${action === undefined ? 'none' : JSON.stringify(action)}`)
}
