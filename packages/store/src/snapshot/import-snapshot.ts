import { randomBytes } from 'node:crypto'
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs'
import { InvalidEncodingError } from '@weft/block'
import { decodeHash } from '@weft/hash-text'
import type { NetworkName } from '@weft/types'
import type { ChainStore } from '../chain-store.js'
import { InvalidBlockError, InvalidSnapshotError, MissingParentError, SnapshotTargetError } from '../errors.js'
import { openStore } from '../open-store.js'
import { readSnapshotFile, type SnapshotHeader } from './snapshot-file.js'

/** Options of `importSnapshot`. */
export interface ImportSnapshotOptions {
  /** The folder of the new store: it must not exist, or be empty. */
  readonly path: string
  /** The network the snapshot must be of; any when left out. */
  readonly network?: NetworkName
  /** Called after each batch written, with the number of blocks so far. */
  readonly onProgress?: (blocks: number) => void
}

/** What an import wrote. */
export interface ImportedSnapshot {
  readonly network: NetworkName
  readonly blocks: number
  /** The adopted cut: chain -> head hash. */
  readonly cut: ReadonlyMap<number, Buffer>
}

// Block lines per insertManyJson call.
const batchSize = 1000

// A line the store cannot read as a block, or a block it refuses (invalid, or without its parent):
// damage to the file rather than a failure of the store.
const isDamage = (error: unknown): boolean =>
  error instanceof InvalidEncodingError || error instanceof InvalidBlockError || error instanceof MissingParentError

/**
 * Writes a new store in `path` from a snapshot file (gzip bytes): every block validated as inserts
 * are (hash, payload hashes, proof of work, parent links), the file's count and checksum verified,
 * and the snapshot's cut adopted, so that a node following an upstream continues from it. The
 * store is written in a folder beside `path` and moved there only once complete: a damaged or cut
 * short file (`INVALID_SNAPSHOT`), or any other failure, leaves nothing behind.
 */
export async function importSnapshot(input: AsyncIterable<Buffer | string>, options: ImportSnapshotOptions): Promise<ImportedSnapshot> {
  const { path } = options
  if (existsSync(path) && readdirSync(path).length > 0) throw new SnapshotTargetError(path)
  const temporary = `${path}.importing-${randomBytes(4).toString('hex')}`
  let store: ChainStore | undefined
  try {
    let header: SnapshotHeader | undefined
    // Blocks written, and blocks handed to the store.
    let blocks = 0
    let handed = 0
    // Block lines, parsed with the hashing on the store's validation threads.
    let batch: Buffer[] = []
    let writing: Promise<unknown> = Promise.resolve()
    // Each batch is handed to the store while the one before is written (the store validates it
    // meanwhile), and the next is read; at most two wait.
    const flush = async (): Promise<void> => {
      const written = batch
      batch = []
      const first = handed + 1
      handed += written.length
      const call = store!.insertManyJson(written).then(
        () => {
          blocks += written.length
          options.onProgress?.(blocks)
        },
        (error: unknown) => {
          // Any other failure (the disk's) is the store's own.
          /* c8 ignore next */
          if (!isDamage(error)) throw error
          const what =
            error instanceof InvalidEncodingError
              ? `one of blocks ${first} to ${first + written.length - 1} cannot be read`
              : 'a block is refused'
          throw new InvalidSnapshotError(`${what}: ${(error as Error).message}`, { cause: error })
        },
      )
      // Awaited at the next flush or at the end; marked handled meanwhile, so that a refused block
      // is the import's error, not an unhandled rejection.
      call.catch(() => undefined)
      const before = writing
      writing = call
      await before
    }
    for await (const part of readSnapshotFile(input)) {
      if (part.kind === 'header') {
        header = part.header
        if (options.network !== undefined && header.network !== options.network)
          throw new InvalidSnapshotError(`it is a snapshot of ${header.network}, expected ${options.network}`)
        // The source store checked braiding when it took the blocks; chain by chain, neighbours may come later here.
        store = await openStore({ path: temporary, network: header.network, cutPolicy: 'adopted', checkBraiding: false })
      } else if (part.kind === 'block') {
        batch.push(part.json)
        if (batch.length >= batchSize) await flush()
      }
    }
    // readSnapshotFile ends with the end part, once the whole file is read and checked, or throws.
    await flush()
    await writing
    const cut = new Map(Object.entries(header!.cut).map(([chain, hash]) => [Number(chain), decodeHash(hash)]))
    await store!.adoptCut(cut)
    await store!.close()
    store = undefined
    if (existsSync(path)) rmSync(path, { recursive: true })
    renameSync(temporary, path)
    return { network: header!.network, blocks, cut }
  } catch (error) {
    await store?.close().catch(() => undefined)
    rmSync(temporary, { recursive: true, force: true })
    throw error
  }
}
