import { randomBytes } from 'node:crypto'
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs'
import { type Block, blockFromJsonText } from '@weft/block'
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

// Blocks per insertMany call.
const batchSize = 1000

const isRefusal = (error: unknown): boolean => error instanceof InvalidBlockError || error instanceof MissingParentError

// The block of a line, or the damage that keeps it from being one.
function readBlock(json: Buffer, index: number): Block {
  try {
    return blockFromJsonText(json.toString('utf8'))
  } catch (error) {
    throw new InvalidSnapshotError(`block ${index + 1} cannot be read (${(error as Error).message})`, { cause: error })
  }
}

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
    let blocks = 0
    let batch: Block[] = []
    let writing: Promise<unknown> = Promise.resolve()
    // Each batch is written while the next is parsed; at most one write waits.
    const flush = async (): Promise<void> => {
      const written = batch
      batch = []
      await writing
      writing = store!.insertMany(written).then(
        () => {
          blocks += written.length
          options.onProgress?.(blocks)
        },
        (error: unknown) => {
          // A block the store refuses (invalid, or without its parent) is damage to the file; any
          // other failure (the disk's) is the store's own.
          /* c8 ignore next */
          if (!isRefusal(error)) throw error
          throw new InvalidSnapshotError(`a block is refused: ${(error as Error).message}`, { cause: error })
        },
      )
      // Awaited at the next flush or at the end; marked handled meanwhile, so that a refused block
      // is the import's error, not an unhandled rejection.
      writing.catch(() => undefined)
    }
    for await (const part of readSnapshotFile(input)) {
      if (part.kind === 'header') {
        header = part.header
        if (options.network !== undefined && header.network !== options.network)
          throw new InvalidSnapshotError(`it is a snapshot of ${header.network}, expected ${options.network}`)
        // The source store checked braiding when it took the blocks; chain by chain, neighbours may come later here.
        store = await openStore({ path: temporary, network: header.network, cutPolicy: 'adopted', checkBraiding: false })
      } else if (part.kind === 'block') {
        batch.push(readBlock(part.json, blocks + batch.length))
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
