import type { BlockWork } from './block-work.js'
import { expectedEpochStart, expectedTarget } from './difficulty-adjustment.js'
import type { BlockViolationCode } from './errors.js'
import { addVote, countVotes, decideVotes, forkNumberOf, forkVotesOf, isForkEpochStart, isForkVoteBlock } from './fork-state.js'
import { sharedGenesisBlock } from './genesis.js'
import { difficulty } from './hashing.js'
import type { Header } from './header.js'
import { isBefore } from './network-rules.js'
import { adjacentChainsAt, genesisHeight, getNetwork, type Network } from './networks.js'

// The properties of release 3.2's src/Chainweb/BlockHeader/Validation.hs, one function per group as
// there: intrinsic (the header alone), chain step (with its parent) and web step (with its adjacent
// parents too). Guards and graphs are those of the header's own version; the target and epoch start
// are computed by the parent's (`powTarget` and `epochStart` take the parent's version).

/** Receives one violated rule (`cause`: what a malformed value threw, if anything). */
export type Report = (code: BlockViolationCode, message: string, cause?: unknown) => void

/** Whether `header` is at its chain's genesis height on its own network (`isGenesisBlockHeader`). */
export function isGenesisHeader(header: Header): boolean {
  try {
    return genesisHeight(getNetwork(header.version), header.chainId) === header.height
  } catch {
    return false
  }
}

/** The rules that need nothing but the header and the clock (`validateIntrinsic`). */
export function checkIntrinsic(b: Header, now: number, work: BlockWork, report: Report): void {
  const network = getNetwork(b.version)
  const { rules } = network
  const genesis = isGenesisHeader(b)
  if (work.blockHash !== undefined) report(work.blockHash.code, work.blockHash.message, work.blockHash.cause)
  if (work.payloadHash !== undefined) report(work.payloadHash.code, work.payloadHash.message, work.payloadHash.cause)
  if (!genesis && work.pow !== undefined) report(work.pow.code, work.pow.message, work.pow.cause)
  // IncorrectGenesisParent is never raised: `prop_block_genesis_parent` reads `g ==> p && p ==> g`,
  // which `infixr 1 ==>` parses as `g ==> ((p && p) ==> g)`, always true. INVALID_GENESIS covers it.
  const genesisTarget = genesis ? sharedGenesisBlock(network, b.chainId)?.header.target : undefined
  if (genesisTarget !== undefined && b.target !== genesisTarget)
    report('INVALID_GENESIS_TARGET', `Expected the genesis target ${genesisTarget.toString(16)}, received ${b.target.toString(16)}`)
  // A genesis block is the network's, whatever the clock says.
  if (!genesis && b.creationTime > now)
    report('BLOCK_IN_THE_FUTURE', `Expected a creation time at most the clock's ${now} µs, received ${b.creationTime}`)
  checkAdjacentChains(network, b, genesis, report)
  if (isBefore(b.height, rules.skipFeatureFlagValidation)) return
  const votes = forkVotesOf(b.featureFlags)
  if (isForkEpochStart(rules, b.height) && votes !== 0 && votes !== addVote(0))
    report('INVALID_FORK_VOTES', `Expected fork votes 0 or ${addVote(0)} at a fork epoch start, received ${votes}`)
  const fork = forkNumberOf(b.featureFlags)
  if (fork > rules.forkNumber) report('UNKNOWN_FORK_NUMBER', `Expected a fork number of at most ${rules.forkNumber}, received ${fork}`)
}

// `prop_block_adjacent_chainIds`: the adjacents name exactly the chain's neighbours in the graph in
// force at the parent's height (a genesis block: its own height).
function checkAdjacentChains(network: Network, b: Header, genesis: boolean, report: Report): void {
  const expected = adjacentChainsAt(network, b.chainId, genesis ? b.height : b.height - 1)
  const chains = b.adjacents.map(([chain]) => chain).sort((x, y) => x - y)
  if (expected === undefined || chains.length !== expected.length || chains.some((c, i) => c !== expected[i]))
    report(
      'INVALID_ADJACENTS',
      expected === undefined
        ? `Expected a chain of ${network.name} at height ${b.height}, received chain ${b.chainId}`
        : `Expected adjacents on chains [${expected.join(',')}], received [${chains.join(',')}]`,
    )
}

/** The rules between a block and its parent (`validateInductiveChainStep`); `p` is not `b`'s genesis self. */
export function checkChainStep(b: Header, p: Header, report: Report): void {
  const { rules } = getNetwork(b.version)
  if (b.height !== p.height + 1) report('INVALID_HEIGHT', `Expected height ${p.height + 1}, received ${b.height}`)
  if (b.version !== p.version) report('INVALID_VERSION', `Expected the parent's network ${p.version}, received ${b.version}`)
  // Weights are Word256s: the sum wraps as the node's does (a target of 0 has no difficulty there).
  const weight = b.target === 0n ? undefined : BigInt.asUintN(256, p.weight + difficulty(b.target))
  if (b.weight !== weight)
    report('INVALID_WEIGHT', `Expected weight ${weight ?? 'none (target 0)'} (parent's plus difficulty), received ${b.weight}`)
  if (b.chainId !== p.chainId) report('INVALID_CHAIN', `Expected the parent's chain ${p.chainId}, received ${b.chainId}`)
  if (isBefore(b.height, rules.skipFeatureFlagValidation)) return
  const votes = forkVotesOf(b.featureFlags)
  const parentVotes = forkVotesOf(p.featureFlags)
  if (!isForkEpochStart(rules, b.height) && isForkVoteBlock(rules, b.height) && votes !== parentVotes && votes !== addVote(parentVotes))
    report('INVALID_FORK_VOTES', `Expected the parent's fork votes ${parentVotes} or ${addVote(parentVotes)}, received ${votes}`)
  const fork = forkNumberOf(b.featureFlags)
  const parentFork = forkNumberOf(p.featureFlags)
  const next = isForkEpochStart(rules, b.height) && decideVotes(rules, parentVotes) ? (parentFork + 1) % 0x1_0000_0000 : parentFork
  if (fork !== next) report('INVALID_FORK_NUMBER', `Expected fork number ${next}, received ${fork}`)
}

/** The rules between a block, its parent and its adjacent parents (`validateInductiveWebStep`), `adjacents` by the chain `b` names them on. */
export function checkWebStep(b: Header, p: Header, adjacents: ReadonlyMap<number, Header>, report: Report): void {
  const { rules } = getNetwork(b.version)
  const parents = [...adjacents.values()]
  const oldDA = isBefore(b.height, rules.oldDifficultyAdjustment)
  const epochStart = expectedEpochStart(p, b.creationTime)
  if (b.epochStart > b.creationTime || (oldDA && p.epochStart > b.epochStart) || b.epochStart !== epochStart)
    report(
      'INVALID_EPOCH_START',
      `Expected epoch start ${epochStart} (no later than the creation time ${b.creationTime}), received ${b.epochStart}`,
    )
  let target: bigint | undefined
  try {
    target = expectedTarget(p, parents, b.creationTime)
  } catch (cause) {
    // Only a malformed time in memory (not an integer) makes the computation throw.
    report('INVALID_TARGET', 'The target cannot be computed from malformed creation times or epoch starts', cause)
  }
  if (b.target !== target)
    report('INVALID_TARGET', `Expected target ${target?.toString(16) ?? 'none (the adjustment fails)'}, received ${b.target.toString(16)}`)
  const latest = oldDA ? p : [p, ...parents].reduce((a, c) => (c.creationTime > a.creationTime ? c : a))
  if (b.creationTime <= latest.creationTime)
    report(
      'INVALID_CREATION_TIME',
      `Expected a creation time after the ${latest === p ? "parent's" : `adjacent parent's on chain ${latest.chainId}`} ${latest.creationTime}, received ${b.creationTime}`,
    )
  for (const [chain, hash] of b.adjacents) {
    const a = adjacents.get(chain)!
    // Found by its hash, so the hashes agree, unless the name is a genesis parent hash, which stands for the genesis block.
    if (a.chainId !== chain || !a.hash.equals(hash))
      report(
        'INVALID_ADJACENT_PARENT',
        `Expected the adjacent parent named for chain ${chain} to be that block of that chain, received one of chain ${a.chainId}`,
      )
  }
  const foreign = parents.find((a) => a.version !== b.version)
  if (foreign !== undefined)
    report(
      'INVALID_ADJACENT_VERSION',
      `Expected adjacent parents of ${b.version}, received one of ${foreign.version} on chain ${foreign.chainId}`,
    )
  if (isBefore(b.height, rules.skipFeatureFlagValidation) || isForkVoteBlock(rules, b.height)) return
  const votes = forkVotesOf(b.featureFlags)
  const counted = countVotes([forkVotesOf(p.featureFlags), ...parents.map((a) => forkVotesOf(a.featureFlags))])
  if (votes !== counted) report('INVALID_FORK_VOTES', `Expected the counted fork votes ${counted}, received ${votes}`)
}

/**
 * Weft's braiding rule, the one the real node's cut enforces (its `prop_block_braiding` holds for
 * every header): each adjacent parent is a block at the height below the block's, so that a block
 * comes after the neighbours it names; and with the parent `p`, the parent and each adjacent
 * parent are braided as a pair of a cut is (`isBraidingOfCutPair`): where each names the other's
 * chain, each names the other's parent. `adjacents` by the chain `b` names them on.
 */
export function checkBraiding(b: Header, adjacents: ReadonlyMap<number, Header>, report: Report, p?: Header): void {
  for (const [chain, a] of adjacents) {
    if (a.height !== b.height - 1) {
      report('INVALID_BRAIDING', `Expected the adjacent parent on chain ${chain} at height ${b.height - 1}, received one at ${a.height}`)
      continue
    }
    if (p === undefined) continue
    // At a graph transition one of the two may not name the other's chain yet: then neither is judged.
    const named = a.adjacents.find(([c]) => c === p.chainId)?.[1]
    const back = p.adjacents.find(([c]) => c === chain)?.[1]
    if (named !== undefined && back !== undefined && (!named.equals(p.parent) || !back.equals(a.parent)))
      report(
        'INVALID_BRAIDING',
        `Expected the parent and the adjacent parent on chain ${chain} to name each other's parents, as a braided cut's blocks do`,
      )
  }
}
