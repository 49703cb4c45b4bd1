import { randomBytes } from 'node:crypto'
import { mkdirSync, readdirSync, renameSync, rmdirSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { InvalidEncodingError } from '@weft/block'
import { decodeHash } from '@weft/hash-text'
import type { NetworkName } from '@weft/types'
import type { ChainStore } from '../chain-store.js'
import {
  BrokenRulesError,
  InvalidBlockError,
  InvalidCutError,
  InvalidSnapshotError,
  MissingParentError,
  SnapshotTargetError,
} from '../errors.js'
import { openImportStore, openStore } from '../open-store.js'
import type { RulesCheckProgress } from '../rules-check.js'
import { readSnapshotFile } from './snapshot-file.js'

/** Options of `importSnapshot`. */
export interface ImportSnapshotOptions {
  /** The folder of the new store: it must not exist, or be empty (a `lost+found` and the names in `keep` aside). */
  readonly path: string
  /** The network the snapshot must be of; any when left out. */
  readonly network?: NetworkName
  /** Called after each batch written, with the number of blocks so far. */
  readonly onProgress?: (blocks: number) => void
  /** Called as the last step checks every block by every rule (the store opened again): how far it went, about once a second. */
  readonly onRulesCheck?: (progress: RulesCheckProgress) => void
  /** Stops the import (its error is the signal's reason), leaving nothing behind. */
  readonly signal?: AbortSignal
  /** Names of entries `path` may hold that the import leaves alone (e.g. the folder of the download it reads). */
  readonly keep?: readonly string[]
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
// The folder, inside the target, where the store is written until it is complete.
const workPrefix = '.importing-'

// A line the store cannot read as a block, or a block it refuses (invalid, or without its parent):
// damage to the file rather than a failure of the store.
const isDamage = (error: unknown): boolean =>
  error instanceof InvalidEncodingError || error instanceof InvalidBlockError || error instanceof MissingParentError

/**
 * Writes a new store in `path` from a snapshot file (gzip bytes): every block validated as inserts
 * are (hash, payload hashes, proof of work, parent links), the file's count and checksum verified,
 * and the snapshot's cut adopted, so that a node following an upstream continues from it.
 *
 * The store is written in a dot-folder inside `path` (on the same disk, also when `path` is a mount
 * point), then its files are moved up into `path`, LevelDB's `CURRENT` last: until that one arrives
 * the folder holds no store. A damaged or cut-short file (`INVALID_SNAPSHOT`), a stop through
 * `signal`, or any other failure removes what the import wrote. Nothing else in `path` is touched.
 */
export async function importSnapshot(input: AsyncIterable<Buffer | string>, options: ImportSnapshotOptions): Promise<ImportedSnapshot> {
  const path = resolve(options.path)
  const created = claimTarget(path, options.keep ?? [])
  const work = join(path, `${workPrefix}${randomBytes(4).toString('hex')}`)
  let store: ChainStore | undefined
  try {
    options.signal?.throwIfAborted()
    let found: { network: NetworkName; cut: Map<number, Buffer> } | undefined
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
      options.signal?.throwIfAborted()
      if (part.kind === 'header') {
        const { header } = part
        if (options.network !== undefined && header.network !== options.network)
          throw new InvalidSnapshotError(`it is a snapshot of ${header.network}, expected ${options.network}`)
        found = {
          network: header.network,
          cut: new Map(Object.entries(header.cut).map(([chain, hash]) => [Number(chain), decodeHash(hash)])),
        }
        // Chain by chain, neighbours may come later here: every rule is checked when the store is opened again below.
        store = await openImportStore({ path: work, network: header.network, cutPolicy: 'adopted' })
      } else if (part.kind === 'block') {
        batch.push(part.json)
        if (batch.length >= batchSize) await flush()
      }
    }
    // readSnapshotFile ends with the end part, once the whole file is read and checked, or throws.
    await flush()
    await writing
    const { network, cut } = found!
    await store!.adoptCut(cut).catch((error: unknown) => {
      // Any other failure (the disk's) is the store's own.
      /* c8 ignore next */
      if (!(error instanceof InvalidCutError)) throw error
      throw new InvalidSnapshotError(`its cut cannot be adopted: ${error.message}`, { cause: error })
    })
    await store!.close()
    store = undefined
    // Opened again, the store checks every block by every rule (the import checked hashes and parent links).
    store = await openStore({
      path: work,
      network,
      cutPolicy: 'adopted',
      ...(options.onRulesCheck === undefined ? {} : { onRulesCheck: options.onRulesCheck }),
    }).catch((error: unknown) => {
      // Any other failure (the disk's) is the store's own.
      /* c8 ignore next */
      if (!(error instanceof BrokenRulesError)) throw error
      throw new InvalidSnapshotError(`a block is refused: ${error.message}`, { cause: error })
    })
    await store.close()
    store = undefined
    options.signal?.throwIfAborted()
    moveUp(work, path)
    return { network, blocks, cut }
  } catch (error) {
    await store?.close().catch(() => undefined)
    rmSync(work, { recursive: true, force: true })
    // A folder the import made goes too, unless something else was put in it meanwhile.
    if (created) rmdirQuietly(path)
    throw error
  }
}

// Checks that `path` may take a new store: missing (then made; answers true) or empty. `lost+found`
// is the file system's, not content. An import's work folder is named as such.
function claimTarget(path: string, keep: readonly string[]): boolean {
  let names: string[]
  try {
    names = readdirSync(path)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOTDIR') throw new SnapshotTargetError(path, 'it is a file')
    // Permission denied, or the disk's failure (the tests run as root, whom no permission stops).
    /* c8 ignore next */
    if (code !== 'ENOENT') throw error
    mkdirSync(path, { recursive: true })
    return true
  }
  const held = names.filter((name) => name !== 'lost+found' && !keep.includes(name))
  if (held.length === 0) return false
  const shown = `${held.slice(0, 3).join(', ')}${held.length > 3 ? ', …' : ''}`
  if (held.every((name) => name.startsWith(workPrefix)))
    throw new SnapshotTargetError(
      path,
      `it holds ${shown}: an import into it is running, or one stopped (then remove that, and import again)`,
    )
  throw new SnapshotTargetError(path, `it holds ${shown}`)
}

// Moves the finished store's files from `work` up into `path` (renames within one file system),
// LevelDB's CURRENT last: a crash before it leaves no store, only files a node refuses to open.
function moveUp(work: string, path: string): void {
  for (const name of readdirSync(work)) if (name !== 'CURRENT') renameSync(join(work, name), join(path, name))
  renameSync(join(work, 'CURRENT'), join(path, 'CURRENT'))
  rmdirSync(work)
}

function rmdirQuietly(path: string): void {
  try {
    rmdirSync(path)
  } catch {
    // Not empty: what is there is not the import's.
  }
}
