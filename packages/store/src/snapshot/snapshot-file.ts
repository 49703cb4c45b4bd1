// The snapshot file: gzip of a header line, one full block per line, and a trailer line with the
// block count and the SHA-256 of everything before it. gzip's own CRC catches most damage; the
// SHA-256 and the trailer catch the rest, a file cut short included.
import { createHash } from 'node:crypto'
import { pipeline, Readable } from 'node:stream'
import { createGunzip, createGzip } from 'node:zlib'
import { encodeHash, isHashText } from '@weft/hash-text'
import { type NetworkName, networkNames } from '@weft/types'
import { InvalidSnapshotError } from '../errors.js'
import type { StoreSnapshot } from './read-snapshot.js'

/** The first line of a snapshot file. */
export interface SnapshotHeader {
  readonly format: 'weft-snapshot'
  readonly version: 1
  readonly network: NetworkName
  /** ISO 8601 UTC. */
  readonly created: string
  /** The node's cut: chain (as text) -> head hash. */
  readonly cut: Readonly<Record<string, string>>
}

/** One thing read from a snapshot file, in order: the header, then each block's JSON text, then the end. */
export type SnapshotPart =
  | { readonly kind: 'header'; readonly header: SnapshotHeader }
  | { readonly kind: 'block'; readonly json: Buffer }
  | { readonly kind: 'end'; readonly blocks: number }

const newline = Buffer.from('\n')
// Block lines start with `{"header":`, the end line with this.
const endPrefix = Buffer.from('{"end":')

async function* snapshotLines(snapshot: StoreSnapshot): AsyncGenerator<Buffer> {
  const hash = createHash('sha256')
  const emit = (line: Buffer): Buffer => {
    const bytes = Buffer.concat([line, newline])
    hash.update(bytes)
    return bytes
  }
  const header: SnapshotHeader = {
    format: 'weft-snapshot',
    version: 1,
    network: snapshot.network.name,
    created: new Date().toISOString(),
    cut: Object.fromEntries([...snapshot.cut].map(([chain, head]) => [String(chain), encodeHash(head.hash)])),
  }
  yield emit(Buffer.from(JSON.stringify(header)))
  let blocks = 0
  // Lines are handed to gzip in groups of a few hundred kilobytes rather than one by one.
  let pending: Buffer[] = []
  let size = 0
  for await (const json of snapshot.blocks()) {
    const line = emit(json)
    pending.push(line)
    size += line.length
    blocks++
    if (size >= 256 * 1024) {
      yield Buffer.concat(pending, size)
      pending = []
      size = 0
    }
  }
  if (size > 0) yield Buffer.concat(pending, size)
  yield Buffer.from(`${JSON.stringify({ end: true, blocks, sha256: hash.digest('hex') })}\n`)
}

/** The snapshot file of `snapshot` as a stream of gzip bytes; closes the snapshot when done or destroyed. */
export function snapshotFileStream(snapshot: StoreSnapshot): Readable {
  const gzip = createGzip({ level: 6 })
  // Ends the lines (and their read of the store) when gzip is destroyed, and gzip when they fail.
  pipeline(Readable.from(snapshotLines(snapshot), { objectMode: false }), gzip, () => {
    // The view's close only frees it: a failure there changes nothing for the file.
    snapshot.close().catch(() => undefined)
  })
  return gzip
}

/** The longest line a snapshot may hold: a block of mainnet takes a few kilobytes, its largest a few megabytes. */
export const maxSnapshotLineBytes = 64 * 1024 * 1024

/**
 * Reads a snapshot file (gzip bytes): yields its header, each block's JSON text and the end, and
 * throws `InvalidSnapshotError` for a file that is not a Weft snapshot, is cut short, or whose
 * count or checksum does not match; nothing after the damage is yielded as valid. A failure to read
 * `input` itself (a missing file, a disk error) is thrown as it is. Leaving early closes `input`.
 */
export async function* readSnapshotFile(input: AsyncIterable<Buffer | string>): AsyncGenerator<SnapshotPart> {
  const gunzip = createGunzip()
  // An error of the input ends the iteration below with it; leaving the iteration ends the input.
  pipeline(Readable.from(input), gunzip, () => undefined)
  const hash = createHash('sha256')
  // The start of a line not ended yet, in the pieces it came in.
  let carry: Buffer[] = []
  let carried = 0
  let header: SnapshotHeader | undefined
  let blocks = 0
  let ended = false
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      let start = 0
      for (let end = chunk.indexOf(0x0a); end >= 0; end = chunk.indexOf(0x0a, start)) {
        const piece = chunk.subarray(start, end)
        const line = carried === 0 ? piece : Buffer.concat([...carry, piece], carried + piece.length)
        carry = []
        carried = 0
        start = end + 1
        if (ended) throw new InvalidSnapshotError('data follows the end line')
        if (header === undefined) {
          header = parseHeader(line)
          hash.update(line).update(newline)
          yield { kind: 'header', header }
        } else if (line.subarray(0, endPrefix.length).equals(endPrefix)) {
          const trailer = parseTrailer(line)
          if (trailer.blocks !== blocks)
            throw new InvalidSnapshotError(`the end line counts ${trailer.blocks} blocks, the file holds ${blocks}`)
          if (trailer.sha256 !== hash.digest('hex'))
            throw new InvalidSnapshotError('the checksum does not match the contents: the file was altered')
          // The end comes out once the whole file is read: nothing may follow its end line.
          ended = true
        } else {
          hash.update(line).update(newline)
          blocks++
          // A copy: the line must not hold the whole chunk in memory.
          yield { kind: 'block', json: Buffer.from(line) }
        }
      }
      if (start < chunk.length) {
        carry.push(chunk.subarray(start))
        carried += chunk.length - start
        if (carried > maxSnapshotLineBytes)
          throw new InvalidSnapshotError(`a line runs past ${maxSnapshotLineBytes / 2 ** 20} MiB without ending`)
      }
    }
  } catch (error) {
    if (error instanceof InvalidSnapshotError || !isZlibError(error)) throw error
    throw new InvalidSnapshotError(`it cannot be read as gzip (${(error as Error).message})`, { cause: error })
  }
  if (header === undefined) throw new InvalidSnapshotError('it is empty')
  if (!ended) throw new InvalidSnapshotError('it ends before its end line: the file is cut short')
  if (carried > 0) throw new InvalidSnapshotError('data follows the end line')
  yield { kind: 'end', blocks }
}

// zlib's errors (damaged or cut-short gzip) carry its Z_ codes; the input's own carry system codes.
function isZlibError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && code.startsWith('Z_')
}

function parseJson(line: Buffer, what: string): Record<string, unknown> {
  try {
    const value = JSON.parse(line.toString('utf8')) as unknown
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>
  } catch {
    // reported below
  }
  throw new InvalidSnapshotError(`its ${what} line is not a JSON object`)
}

function parseHeader(line: Buffer): SnapshotHeader {
  const value = parseJson(line, 'first')
  if (value.format !== 'weft-snapshot') throw new InvalidSnapshotError('its first line does not name the weft-snapshot format')
  if (value.version !== 1) throw new InvalidSnapshotError(`it is of version ${String(value.version)}, this Weft reads version 1`)
  if (typeof value.network !== 'string' || typeof value.cut !== 'object' || value.cut === null || Array.isArray(value.cut))
    throw new InvalidSnapshotError('its first line lacks the network or the cut')
  if (!(networkNames as readonly string[]).includes(value.network))
    throw new InvalidSnapshotError(`it names the network ${JSON.stringify(value.network)}, which this Weft does not know`)
  for (const [chain, hash] of Object.entries(value.cut))
    if (!/^(0|[1-9]\d{0,3})$/.test(chain) || typeof hash !== 'string' || !isHashText(hash))
      throw new InvalidSnapshotError(`its cut names ${JSON.stringify(chain)}: ${JSON.stringify(hash)}, not a chain and a block hash`)
  return value as unknown as SnapshotHeader
}

function parseTrailer(line: Buffer): { blocks: number; sha256: string } {
  const value = parseJson(line, 'end')
  if (value.end !== true || typeof value.blocks !== 'number' || typeof value.sha256 !== 'string')
    throw new InvalidSnapshotError('its end line lacks the block count or the checksum')
  return { blocks: value.blocks, sha256: value.sha256 }
}
