import {
  BlockValidationError,
  type BlockWork,
  braidingViolations,
  genesisHeight,
  type Header,
  type Network,
  validateHeader,
} from '@weft/block'
import { mapKeyOfHash } from '@weft/hash-text'
import type { BlockReads } from './block-reads.js'
import { InvalidBlockError, MissingAdjacentError, MissingParentError } from './errors.js'
import type { KnownBlocks } from './line-reader.js'
import type { RecentHeader } from './recent-headers.js'

/** What a batch knows of the blocks its new ones name: parents and adjacent parents that are stored already, by `mapKeyOfHash`. */
export interface NamedBlocks {
  readonly parents: ReadonlyMap<string, RecentHeader>
  readonly adjacents: ReadonlyMap<string, RecentHeader>
}

/**
 * Reads, in one batch each, the parents and (unless `adjacents` is false) the adjacent parents that
 * `headers` name and that memory does not hold: neither among `newHashes` (the batch's own new
 * blocks), nor `known` (in flight or recent). The rules read an adjacent parent's whole header (its
 * creation time, target, epoch start, votes and version), but a block's neighbours one height below
 * were written just before it almost always, so memory holds them: a syncing node seldom reads one.
 */
export async function readNamedBlocks(
  reads: BlockReads,
  headers: readonly Header[],
  newHashes: ReadonlySet<string>,
  known: KnownBlocks,
  adjacents: boolean,
): Promise<NamedBlocks> {
  const missing = (key: string): boolean => !newHashes.has(key) && known(key) === undefined
  const wantedParents = new Map<string, Buffer>()
  const wantedAdjacents = new Map<string, Buffer>()
  for (const header of headers) {
    const key = mapKeyOfHash(header.parent)
    if (missing(key)) wantedParents.set(key, header.parent)
    if (!adjacents) continue
    for (const [, hash] of header.adjacents) {
      const adjacentKey = mapKeyOfHash(hash)
      if (missing(adjacentKey)) wantedAdjacents.set(adjacentKey, hash)
    }
  }
  const [parentHeaders, adjacentHeaders] = await Promise.all([
    wantedParents.size === 0 ? [] : reads.storedHeaders([...wantedParents.values()], 'near'),
    wantedAdjacents.size === 0 ? [] : reads.storedHeaders([...wantedAdjacents.values()], 'near'),
  ])
  return { parents: found(wantedParents, parentHeaders), adjacents: found(wantedAdjacents, adjacentHeaders) }
}

function found<T>(wanted: ReadonlyMap<string, Buffer>, values: ReadonlyArray<T | undefined>): Map<string, T> {
  const map = new Map<string, T>()
  ;[...wanted.keys()].forEach((key, index) => {
    const value = values[index]
    if (value !== undefined) map.set(key, value)
  })
  return map
}

/** How a block is judged: every rule of the network, or (a snapshot import, checked in full before use) its own hashes and parent link. */
export type Judgement = { readonly full: true; readonly now: number } | { readonly full: false }

/**
 * Why the block of `header` is refused, or undefined when it may be written: its parent missing
 * (unless it is a genesis block), one of its adjacent parents missing (`adjacent` finds them), or
 * the rules of `validateHeader` and the store's braiding rule it breaks (`work`: its hashing
 * checks, done already; `judgement.now`: the clock). A `full: false` judgement checks only the
 * hashes and the parent link.
 */
export function refusal(
  header: Header,
  parent: Header | undefined,
  network: Network,
  adjacent: (key: string) => Header | undefined,
  work: BlockWork,
  judgement: Judgement,
): Error | undefined {
  const genesis = isGenesisHeight(network, header.chainId, header.height)
  if (parent === undefined && !genesis) return new MissingParentError(header.hash, header.parent)
  if (!judgement.full) return genesis ? violationsOf(header, validateHeader(header, { network, work })) : workRefusal(header, work)
  const adjacentParents: Header[] = []
  if (!genesis) {
    for (const [chain, hash] of header.adjacents) {
      const found = adjacent(mapKeyOfHash(hash))
      if (found === undefined) return new MissingAdjacentError(header.hash, chain, hash)
      adjacentParents.push(found)
    }
  }
  const violations = validateHeader(header, { network, parent, adjacentParents, now: judgement.now, work })
  return violationsOf(header, [...violations, ...braidingViolations(header, adjacentParents)])
}

function violationsOf(header: Header, violations: readonly BlockValidationError[]): Error | undefined {
  return violations.length === 0 ? undefined : new InvalidBlockError(header.hash, violations)
}

// The hashing checks alone, as violations.
function workRefusal(header: Header, work: BlockWork): Error | undefined {
  const found = [work.blockHash, work.payloadHash, work.pow].flatMap((v) =>
    v === undefined ? [] : [new BlockValidationError(v.code, v.message, { cause: v.cause })],
  )
  return violationsOf(header, found)
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

/** Where a batch finds an adjacent parent: its own staged blocks and memory first, then what was read for it. */
export function adjacentLookup(known: KnownBlocks, named: NamedBlocks): (key: string) => Header | undefined {
  return (key) => known(key)?.header ?? named.adjacents.get(key)?.header
}

function isGenesisHeight(network: Network, chain: number, height: number): boolean {
  try {
    return genesisHeight(network, chain) === height
  } catch {
    return false
  }
}
