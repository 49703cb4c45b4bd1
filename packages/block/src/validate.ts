import { encodeHash } from '@weft/hash-text'
import type { NetworkName } from '@weft/types'
import { type BlockWork, checkBlockWork, checkHeaderWork } from './block-work.js'
import { BlockValidationError, type BlockViolationCode } from './errors.js'
import { sharedGenesisBlock } from './genesis.js'
import { genesisParentHash } from './hashing.js'
import type { Block, Header } from './header.js'
import { checkBraiding, checkChainStep, checkIntrinsic, checkWebStep, isGenesisHeader, type Report } from './header-rules.js'
import { getNetwork, type Network } from './networks.js'

/** The adjacent parents of a header: a map or object by chain id, or a list (each found by its hash). */
export type AdjacentParents = ReadonlyMap<number | string, Header> | Readonly<Record<string, Header>> | readonly Header[]

/** What `validateHeader` judges a header against; it reads nothing else. */
export interface ValidationContext {
  /** The network the header must belong to: a `Network` or its name. */
  readonly network: Network | NetworkName
  /** The header's parent (none for a genesis block). */
  readonly parent?: Header | undefined
  /** The headers its adjacents name (none for a genesis block). */
  readonly adjacentParents?: AdjacentParents | undefined
  /** The clock, microseconds since the POSIX epoch; default the system clock. */
  readonly now?: number | undefined
  /** Hashing checks done already (`checkBlockWork`, `checkHeaderWork`), say on a worker thread; a payload hash violation among them is reported too. */
  readonly work?: BlockWork | undefined
}

// The violations found so far, one per code (the node lists a rule checked in two places twice).
class Violations {
  readonly found: BlockValidationError[] = []
  readonly #codes = new Set<BlockViolationCode>()
  readonly report: Report = (code, message, cause) => {
    if (this.#codes.has(code)) return
    this.#codes.add(code)
    this.found.push(new BlockValidationError(code, message, cause === undefined ? undefined : { cause }))
  }
}

function headersOf(given: AdjacentParents | undefined): Header[] {
  if (given === undefined) return []
  if (Array.isArray(given)) return [...(given as readonly Header[])]
  if (given instanceof Map) return [...(given as ReadonlyMap<number | string, Header>).values()]
  return Object.values(given as Readonly<Record<string, Header>>)
}

// The adjacent parents `b` names, by the chain it names each on, found by hash; undefined when one
// is missing. As the node does, an adjacent naming a chain's genesis parent hash stands for that
// chain's genesis block.
function namedAdjacents(b: Header, given: AdjacentParents | undefined): Map<number, Header> | undefined {
  // A few headers each: a search by comparing hashes costs less than a map of their texts.
  const headers = headersOf(given)
  const found = new Map<number, Header>()
  const network = getNetwork(b.version)
  for (const [chain, hash] of b.adjacents) {
    const header =
      headers.find((h) => h.hash.equals(hash)) ??
      (hash.equals(genesisParentHash(network.versionCode, chain)) ? sharedGenesisBlock(network, chain)?.header : undefined)
    if (header === undefined) return undefined
    found.set(chain, header)
  }
  return found
}

function knownNetwork(name: NetworkName): boolean {
  try {
    getNetwork(name)
    return true
  } catch {
    return false
  }
}

// Field-by-field equality of two headers, including the hash.
function sameHeader(a: Header, b: Header): boolean {
  return (
    a.nonce === b.nonce &&
    a.creationTime === b.creationTime &&
    a.parent.equals(b.parent) &&
    a.adjacents.length === b.adjacents.length &&
    a.adjacents.every(([chain, hash], i) => {
      const other = b.adjacents[i] as readonly [number, Buffer]
      return chain === other[0] && hash.equals(other[1])
    }) &&
    a.target === b.target &&
    a.payloadHash.equals(b.payloadHash) &&
    a.chainId === b.chainId &&
    a.weight === b.weight &&
    a.height === b.height &&
    a.version === b.version &&
    a.epochStart === b.epochStart &&
    a.featureFlags === b.featureFlags &&
    a.hash.equals(b.hash)
  )
}

/**
 * Every rule of chainweb-node release 3.2 that `header` breaks, as a child of `context.parent` with
 * the adjacent parents `context.adjacentParents`, on `context.network`, at the heights each rule
 * applies: [] when the node would accept it. Each violation is a `BlockValidationError` with a
 * stable `code` (the package README maps them to the node's `ValidationFailureType`s). Without the
 * parent or an adjacent parent nothing more can be judged: the answer is MISSING_PARENT or
 * MISSING_ADJACENT_PARENT alone, as the node's. A header at its chain's genesis height must be the
 * network's genesis header. Braiding is the store's rule (`braidingViolations`), as the cut's is the node's.
 */
export function validateHeader(header: Header, context: ValidationContext): BlockValidationError[] {
  const network = typeof context.network === 'string' ? getNetwork(context.network) : context.network
  const work = context.work ?? checkHeaderWork(header)
  const now = context.now ?? Date.now() * 1000
  const violations = new Violations()
  const { report } = violations
  if (!knownNetwork(header.version)) {
    // A header of no network Weft knows has no rules to judge it by (only a malformed one in memory).
    for (const found of [work.blockHash, work.payloadHash, work.pow])
      if (found !== undefined) report(found.code, found.message, found.cause)
    report('INVALID_VERSION', `Expected a block of ${network.name}, received one of ${String(header.version)}`)
    return violations.found
  }
  if (isGenesisHeader(header)) {
    if (header.version !== network.name) report('INVALID_VERSION', `Expected a block of ${network.name}, received one of ${header.version}`)
    checkIntrinsic(header, now, work, report)
    const genesis = sharedGenesisBlock(network, header.chainId)?.header
    if (genesis === undefined || !sameHeader(header, genesis))
      report(
        'INVALID_GENESIS',
        genesis === undefined
          ? `Expected a chain of ${network.name}, received a genesis-height block of chain ${header.chainId}`
          : `Expected the genesis block ${encodeHash(genesis.hash)} of chain ${header.chainId} at its genesis height, received ${encodeHash(header.hash)}`,
      )
    return violations.found
  }
  const adjacents = namedAdjacents(header, context.adjacentParents)
  if (adjacents === undefined) {
    const missing = header.adjacents.filter(([, hash]) => !headersOf(context.adjacentParents).some((h) => h.hash.equals(hash)))
    report(
      'MISSING_ADJACENT_PARENT',
      `Expected the adjacent parents the header names, missing ${missing.map(([c, h]) => `${encodeHash(h)} (chain ${c})`).join(', ')}`,
    )
    return violations.found
  }
  const { parent } = context
  if (parent === undefined || !parent.hash.equals(header.parent)) {
    report(
      'MISSING_PARENT',
      `Expected the parent the header names, ${encodeHash(header.parent)}, received ${parent === undefined ? 'none' : encodeHash(parent.hash)}`,
    )
    return violations.found
  }
  if (header.version !== network.name) report('INVALID_VERSION', `Expected a block of ${network.name}, received one of ${header.version}`)
  checkIntrinsic(header, now, work, report)
  checkChainStep(header, parent, report)
  checkWebStep(header, parent, adjacents, report)
  return violations.found
}

/**
 * `validateHeader` for a whole block: its payload's hashes too (INVALID_PAYLOAD_HASH). `context.work`,
 * when given, holds the block's hashing checks (`checkBlockWork`).
 */
export function validateBlock(block: Block, context: ValidationContext): BlockValidationError[] {
  return validateHeader(block.header, { ...context, work: context.work ?? checkBlockWork(block) })
}

/**
 * The braiding rule Weft's store adds to `validateHeader` (INVALID_BRAIDING), the one the real
 * node's cut enforces: each adjacent parent is a block at the height below the header's; and, with
 * the `parent` (the block the header names), the parent and each adjacent parent name each other's
 * parents where each names the other's chain (the adjacents agree with each other). Adjacent
 * parents not given are not judged here.
 */
export function braidingViolations(header: Header, adjacentParents: AdjacentParents, parent?: Header): BlockValidationError[] {
  const named = new Map<number, Header>()
  const headers = headersOf(adjacentParents)
  for (const [chain, hash] of header.adjacents) {
    const found = headers.find((h) => h.hash.equals(hash))
    if (found !== undefined) named.set(chain, found)
  }
  const violations = new Violations()
  checkBraiding(header, named, violations.report, parent?.hash.equals(header.parent) ? parent : undefined)
  return violations.found
}
