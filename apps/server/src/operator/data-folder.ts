import { readdirSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import { errorCode, isWeftError } from '@weft/errors'
import { type ChainStore, type OpenStoreOptions, openStore, UnsupportedLayoutError } from '@weft/store'
import { StoreUnavailableError } from '../errors.js'

// Entries a fresh volume or a checked-out folder may hold without being anyone's data.
const harmless = (name: string): boolean => name.startsWith('.') || name === 'lost+found'

function causes(error: unknown): Array<{ code: string | undefined; message: string }> {
  const chain: Array<{ code: string | undefined; message: string }> = []
  for (let current = error; current !== undefined && current !== null && chain.length < 10; current = (current as Error).cause)
    chain.push({ code: errorCode(current), message: String((current as Error).message ?? current) })
  return chain
}

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

/** Turns a failure to open the store into the cause an operator can act on (`STORE_UNAVAILABLE` when it is none of those). */
export function diagnoseStoreFailure(path: string, network: string, error: unknown): StoreUnavailableError {
  const chain = causes(error)
  const has = (test: (cause: { code: string | undefined; message: string }) => boolean) => chain.some(test)
  const folder = resolve(path)
  const options = { cause: error }
  if (has((cause) => cause.code === 'NETWORK_MISMATCH')) {
    const held = /holds one of (\S+)/.exec(chain[0]?.message ?? '')?.[1] ?? 'another network'
    return new StoreUnavailableError(
      'STORE_WRONG_NETWORK',
      `Expected ${folder} to hold a store of ${network}, but it holds one of ${held}. Fix: start with --network ${held}, or give --data another folder`,
      options,
    )
  }
  if (has((cause) => cause.code === 'LEVEL_LOCKED'))
    return new StoreUnavailableError(
      'STORE_LOCKED',
      `Expected to open the store in ${folder}, but another process holds its lock (another weft-server or weft-devnet on the same folder). ` +
        'Fix: stop that process, or give --data another folder (each node needs a store of its own)',
      options,
    )
  if (has((cause) => cause.code === 'EACCES' || cause.code === 'EPERM' || /permission denied/i.test(cause.message)))
    return new StoreUnavailableError(
      'STORE_PERMISSION_DENIED',
      `Expected to read and write the store in ${folder}, but permission was denied to this user (uid ${process.getuid?.() ?? '?'}). ` +
        "Fix: give this user the folder (chown -R), or run as the folder's owner, or give --data a folder this user may write",
      options,
    )
  if (has((cause) => cause.code === 'EEXIST' || cause.code === 'ENOTDIR'))
    return new StoreUnavailableError(
      'NOT_A_STORE',
      `Expected ${folder} to be a folder for the store, but a file is in the way. Fix: give --data a folder`,
      options,
    )
  if (has((cause) => cause.code === 'LEVEL_CORRUPTION' || cause.code === 'CORRUPT_STORE'))
    return new StoreUnavailableError(
      'STORE_CORRUPT',
      `Expected a readable store in ${folder}, but it is corrupt (${chain[chain.length - 1]?.message}). ` +
        'Fix: move the folder aside and start on a new one (or restore a snapshot); the node then syncs again',
      options,
    )
  return new StoreUnavailableError(
    'STORE_UNAVAILABLE',
    `Expected to open the store in ${folder}, but it failed: ${chain[chain.length - 1]?.message}`,
    options,
  )
}

/** `openStore`, with every failure turned into an error that names the cause and the fix: `UnsupportedLayoutError` as it is, any other a `StoreUnavailableError`. */
export async function openNodeStore(options: OpenStoreOptions): Promise<ChainStore> {
  refuseForeignFolder(options.path)
  try {
    return await openStore(options)
  } catch (error) {
    // A store of another version's layout: its own message names the fix, and the folder is left as it is.
    if (error instanceof UnsupportedLayoutError) throw error
    throw diagnoseStoreFailure(options.path, options.network, error)
  }
}
