import { BlockValidationError, type BlockWork, genesisHeight, type Header, type Network, validateHeader } from '@weft/block'
import { mapKeyOfHash } from '@weft/hash-text'
import type { HeaderRef } from '@weft/traversal'
import type { BlockReads } from './block-reads.js'
import type { JoinedBlock } from './chain-store.js'
import { InvalidBlockError, MissingAdjacentError, MissingParentError } from './errors.js'
import type { KnownBlocks } from './line-reader.js'
import type { RecentHeader } from './recent-headers.js'

/** What a batch knows of the blocks its new ones name: parents and adjacents that are stored already, by `mapKeyOfHash`. */
export interface NamedBlocks {
  readonly parents: ReadonlyMap<string, RecentHeader>
  readonly adjacents: ReadonlyMap<string, HeaderRef>
}

/**
 * Reads, in one batch each, the parents and (when braiding is checked) the adjacents that `headers`
 * name and that memory does not hold: neither among `newHashes` (the batch's own new blocks), nor
 * `known` (in flight or recent).
 */
export async function readNamedBlocks(
  reads: BlockReads,
  headers: readonly Header[],
  newHashes: ReadonlySet<string>,
  known: KnownBlocks,
  checkBraiding: boolean,
): Promise<NamedBlocks> {
  const missing = (key: string): boolean => !newHashes.has(key) && known(key) === undefined
  const wantedParents = new Map<string, Buffer>()
  const wantedAdjacents = new Map<string, Buffer>()
  for (const header of headers) {
    const key = mapKeyOfHash(header.parent)
    if (missing(key)) wantedParents.set(key, header.parent)
    if (!checkBraiding) continue
    for (const [, hash] of header.adjacents) {
      const adjacentKey = mapKeyOfHash(hash)
      if (missing(adjacentKey)) wantedAdjacents.set(adjacentKey, hash)
    }
  }
  const [parentHeaders, adjacentRefs] = await Promise.all([
    wantedParents.size === 0 ? [] : reads.storedHeaders([...wantedParents.values()], 'near'),
    wantedAdjacents.size === 0 ? [] : reads.refs([...wantedAdjacents.values()]),
  ])
  return { parents: found(wantedParents, parentHeaders), adjacents: found(wantedAdjacents, adjacentRefs) }
}

function found<T>(wanted: ReadonlyMap<string, Buffer>, values: ReadonlyArray<T | undefined>): Map<string, T> {
  const map = new Map<string, T>()
  ;[...wanted.keys()].forEach((key, index) => {
    const value = values[index]
    if (value !== undefined) map.set(key, value)
  })
  return map
}

/**
 * Why the block of `header` is refused, or undefined when it may be written: its parent missing
 * (unless it is a genesis block), one of its violations of `validateHeader` (`work`: its hashing checks, done
 * already), or, with `adjacent` given (braiding checked), an adjacent that is not a stored block of
 * its chain at the parent's height.
 */
export function refusal(
  header: Header,
  parent: Header | undefined,
  network: Network,
  adjacent: ((key: string) => Pick<HeaderRef, 'chainId' | 'height'> | undefined) | undefined,
  work: BlockWork,
): Error | undefined {
  const genesis = isGenesisHeight(network, header.chainId, header.height)
  if (parent === undefined && !genesis) return new MissingParentError(header.hash, header.parent)
  const violations = validateHeader(header, parent, network, work)
  if (violations.length > 0) return new InvalidBlockError(header.hash, violations)
  if (genesis || adjacent === undefined) return undefined
  // Chains and their count are checked by validateHeader; here each neighbour must be stored where it belongs.
  for (const [chain, hash] of header.adjacents) {
    const ref = adjacent(mapKeyOfHash(hash))
    if (ref === undefined) return new MissingAdjacentError(header.hash, chain, hash)
    if (ref.chainId !== chain || ref.height !== header.height - 1) {
      const message = `Expected adjacent ${hash.toString('base64url')} to be a block of chain ${chain} at height ${header.height - 1}, received one of chain ${ref.chainId} at height ${ref.height}`
      return new InvalidBlockError(header.hash, [new BlockValidationError('INVALID_ADJACENTS', message)])
    }
  }
  return undefined
}

/**
 * Why a block whose hash the store holds already is refused: its header does not hash to that hash,
 * or its payload not to the header's payload hash, so it is not the stored block but a text that
 * names it. Undefined when it is that block (whose other rules held when it was stored).
 */
export function notTheStoredBlock(header: Header, work: BlockWork): Error | undefined {
  const violations = [work.blockHash, work.payloadHash].flatMap((found) =>
    // `cause`: what a malformed value threw, when the check ran on this thread.
    found === undefined ? [] : [new BlockValidationError(found.code, found.message, { cause: found.cause })],
  )
  return violations.length === 0 ? undefined : new InvalidBlockError(header.hash, violations)
}

/** Where a batch finds an adjacent: its own staged blocks and memory first, then what was read for it. */
export function adjacentLookup(known: KnownBlocks, named: NamedBlocks): (key: string) => Pick<HeaderRef, 'chainId' | 'height'> | undefined {
  return (key) => {
    const entry: JoinedBlock | undefined = known(key)
    return entry?.header ?? named.adjacents.get(key)
  }
}

function isGenesisHeight(network: Network, chain: number, height: number): boolean {
  try {
    return genesisHeight(network, chain) === height
  } catch {
    return false
  }
}
