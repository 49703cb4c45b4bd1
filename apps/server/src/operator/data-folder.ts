import { readdirSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import { isWeftError } from '@weft/errors'
import {
  BrokenRulesError,
  type ChainStore,
  CorruptStoreError,
  NetworkMismatchError,
  type OpenStoreOptions,
  openStore,
  StoreOpenError,
  type StoreOpenReason,
  UnsupportedLayoutError,
} from '@weft/store'
import { StoreUnavailableError } from '../errors.js'

// Entries a fresh volume or a checked-out folder may hold without being anyone's data.
const harmless = (name: string): boolean => name.startsWith('.') || name === 'lost+found'

// A folder that holds files but no LevelDB `CURRENT` is someone else's: opening it would write a store into it.
function refuseForeignFolder(folder: string): void {
  const path = resolve(folder)
  let names: string[]
  try {
    if (!statSync(path).isDirectory())
      throw new StoreUnavailableError(
        'NOT_A_STORE',
        `Expected ${path} to be a folder for the store, but it is a file. Fix: give --data a folder`,
      )
    names = readdirSync(path)
  } catch (error) {
    // A folder that does not exist yet is created by the store; one that cannot be read is diagnosed by the open.
    if (isWeftError(error)) throw error
    return
  }
  const others = names.filter((name) => !harmless(name))
  if (others.length > 0 && !names.includes('CURRENT'))
    throw new StoreUnavailableError(
      'NOT_A_STORE',
      `Expected ${path} to be empty or a Weft store, but it holds other files (${others.slice(0, 3).join(', ')}${others.length > 3 ? ', …' : ''}). ` +
        'Fix: give --data a new or empty folder, or the folder of a Weft store',
    )
}

type Answer = readonly [code: (typeof StoreUnavailableError.codes)[number], message: string]

// The store's reasons for an engine failure, told with the fix.
const answers: Readonly<Record<StoreOpenReason, (folder: string, detail: string) => Answer>> = {
  locked: (folder) => [
    'STORE_LOCKED',
    `Expected to open the store in ${folder}, but another process holds its lock (another weft-server or weft-devnet on the same folder). ` +
      'Fix: stop that process, or give --data another folder (each node needs a store of its own)',
  ],
  'read-only': (folder) => [
    'STORE_READ_ONLY',
    `Expected to open the store in ${folder}, but it lies on a read-only file system, and LevelDB writes to open a store (its lock file and log). ` +
      'Fix: mount it read-write, or copy the folder to a writable disk and give --data that copy',
  ],
  'permission-denied': (folder) => [
    'STORE_PERMISSION_DENIED',
    `Expected to read and write the store in ${folder}, but permission was denied to this user (uid ${process.getuid?.() ?? '?'}). ` +
      "Fix: give this user the folder (chown -R), or run as the folder's owner, or give --data a folder this user may write",
  ],
  'not-a-folder': (folder) => [
    'NOT_A_STORE',
    `Expected ${folder} to be a folder for the store, but a file is in the way. Fix: give --data a folder`,
  ],
  corrupt: (folder, detail) => [
    'STORE_CORRUPT',
    `Expected a readable store in ${folder}, but it is corrupt (${detail}). ` +
      'Fix: stop the node and run weft-server --repair --data on the folder (an upstream node fetches again what it lost), ' +
      'or move the folder aside and start on a new one (or restore a snapshot); the node then syncs again',
  ],
  'disk-full': (folder, detail) => [
    'STORE_DISK_FULL',
    `Expected room to open the store in ${folder}, but its disk is full (${detail}). ` +
      'Fix: free space on that disk (LevelDB writes its log and a table when it opens), then start again',
  ],
  failed: (folder, detail) => ['STORE_UNAVAILABLE', `Expected to open the store in ${folder}, but it failed: ${detail}`],
}

/**
 * The node's answer to a store that would not open: the store's reason, with the fix for `--data`
 * or `--network`. `UNSUPPORTED_LAYOUT` and `STORE_BREAKS_RULES` (a store of an earlier Weft that
 * holds a block the rules now refuse) stay the store's own errors, whose messages name the fix.
 */
export function storeOpenAnswer(path: string, network: string, error: unknown): Error {
  if (error instanceof UnsupportedLayoutError || error instanceof BrokenRulesError) return error
  const folder = resolve(path)
  const answer = (code: Answer[0], message: string) => new StoreUnavailableError(code, message, { cause: error })
  if (error instanceof NetworkMismatchError)
    return answer(
      'STORE_WRONG_NETWORK',
      `Expected ${folder} to hold a store of ${network}, but it holds one of ${error.found}. Fix: start with --network ${error.found}, or give --data another folder`,
    )
  if (error instanceof CorruptStoreError) return answer(...answers.corrupt(folder, error.message))
  if (error instanceof StoreOpenError) return answer(...answers[error.reason](folder, error.detail))
  return answer(...answers.failed(folder, error instanceof Error ? error.message : String(error)))
}

/** `openStore` on the node's data folder: a folder of other files refused, and every failure told with its fix (`storeOpenAnswer`). */
export async function openNodeStore(options: OpenStoreOptions): Promise<ChainStore> {
  refuseForeignFolder(options.path)
  try {
    return await openStore(options)
  } catch (error) {
    throw storeOpenAnswer(options.path, options.network, error)
  }
}
