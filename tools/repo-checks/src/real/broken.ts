// Negative cases: the node's testnet04 broken children, and the node's own table of single changes
// to a real mainnet header (`validationFailures` in the node's test/unit/.../BlockHeader/Validation.hs),
// each expected to fail with the codes of the failures the node expects.
import { type BlockViolationCode, getNetwork, type Header, isBefore, validateHeader } from '@weft/block'
import type { RealData, Triple } from './sources.js'

/** Each `ValidationFailureType` of chainweb-node 3.2 and the Weft code that stands for it. */
export const NODE_FAILURE_CODES: Readonly<Record<string, BlockViolationCode>> = Object.freeze({
  MissingParent: 'MISSING_PARENT',
  MissingAdjacentParent: 'MISSING_ADJACENT_PARENT',
  CreatedBeforeParent: 'INVALID_CREATION_TIME',
  VersionMismatch: 'INVALID_VERSION',
  ChainMismatch: 'INVALID_CHAIN',
  AdjacentChainMismatch: 'INVALID_ADJACENTS',
  AdjacentParentChainMismatch: 'INVALID_ADJACENT_PARENT',
  IncorrectHash: 'INVALID_BLOCK_HASH',
  IncorrectPow: 'INVALID_POW',
  IncorrectHeight: 'INVALID_HEIGHT',
  IncorrectWeight: 'INVALID_WEIGHT',
  IncorrectTarget: 'INVALID_TARGET',
  IncorrectEpoch: 'INVALID_EPOCH_START',
  IncorrectGenesisTarget: 'INVALID_GENESIS_TARGET',
  BlockInTheFuture: 'BLOCK_IN_THE_FUTURE',
  IncorrectPayloadHash: 'INVALID_PAYLOAD_HASH',
  InvalidBraiding: 'INVALID_BRAIDING',
  InvalidAdjacentVersion: 'INVALID_ADJACENT_VERSION',
  IncorrectForkNumber: 'INVALID_FORK_NUMBER',
  UnknownForkNumber: 'UNKNOWN_FORK_NUMBER',
  InvalidForkVotes: 'INVALID_FORK_VOTES',
})

// The fork-state codes: 3.x's rules for the feature-flag bytes, which the older InvalidFeatureFlags
// (flags must be zero) became; they judge a child's flags against its parent's.
const forkCodes: ReadonlySet<string> = new Set(['INVALID_FORK_NUMBER', 'INVALID_FORK_VOTES', 'UNKNOWN_FORK_NUMBER'])

const flip = (bytes: Buffer): Buffer => Buffer.from(bytes.map((byte, i) => (i === 0 ? byte ^ 1 : byte)))
const second = 1_000_000

// The node's table: each change to the header at 318,266 (chain 7) or its parents, and the failures
// it expects. A creation time of maxBound is the largest a JavaScript number holds exactly.
const mutations: ReadonlyArray<readonly [string, (t: Triple) => Triple, readonly string[]]> = [
  [
    'creation time at the end of time',
    (t) => withHeader(t, { creationTime: Number.MAX_SAFE_INTEGER }),
    ['IncorrectHash', 'IncorrectPow', 'BlockInTheFuture'],
  ],
  [
    'creation time a second later',
    (t) => withHeader(t, { creationTime: t.header.creationTime + second }),
    ['IncorrectHash', 'IncorrectPow'],
  ],
  ['a null hash', (t) => withHeader(t, { hash: Buffer.alloc(32) }), ['IncorrectHash']],
  [
    "the parent's creation time",
    (t) => withHeader(t, { creationTime: t.parent.creationTime }),
    ['IncorrectHash', 'IncorrectPow', 'CreatedBeforeParent'],
  ],
  ['a bit of the hash', (t) => withHeader(t, { hash: flip(t.header.hash) }), ['IncorrectHash']],
  ['a bit of the target', (t) => withHeader(t, { target: t.header.target ^ 1n }), ['IncorrectHash', 'IncorrectPow', 'IncorrectTarget']],
  [
    "the parent's height 318,359",
    (t) => ({ ...t, parent: { ...t.parent, height: 318_359 } }),
    ['IncorrectHeight', 'IncorrectEpoch', 'IncorrectTarget'],
  ],
  ['a bit of the parent hash', (t) => withHeader(t, { parent: flip(t.header.parent) }), ['MissingParent']],
  ['a bit of the payload hash', (t) => withHeader(t, { payloadHash: flip(t.header.payloadHash) }), ['IncorrectHash', 'IncorrectPow']],
  [
    'the epoch start a second later',
    (t) => withHeader(t, { epochStart: t.header.epochStart + second }),
    ['IncorrectHash', 'IncorrectPow', 'IncorrectEpoch'],
  ],
  ['chain 1', (t) => withHeader(t, { chainId: 1 }), ['IncorrectHash', 'IncorrectPow', 'ChainMismatch', 'AdjacentChainMismatch']],
  [
    'the version recap-development',
    (t) => withHeader(t, { version: 'recap-development' }),
    // The node's table predates 3.2's forkKnown rule; recap-development knows no fork above 0.
    [
      'IncorrectHash',
      'IncorrectPow',
      'VersionMismatch',
      'InvalidForkVotes',
      'IncorrectForkNumber',
      'UnknownForkNumber',
      'CreatedBeforeParent',
      'AdjacentChainMismatch',
      'InvalidAdjacentVersion',
    ],
  ],
  ['weight 10', (t) => withHeader(t, { weight: 10n }), ['IncorrectHash', 'IncorrectPow', 'IncorrectWeight']],
  ['weight + 1', (t) => withHeader(t, { weight: t.header.weight + 1n }), ['IncorrectHash', 'IncorrectPow', 'IncorrectWeight']],
  ['height 10', (t) => withHeader(t, { height: 10 }), ['IncorrectHash', 'IncorrectPow', 'IncorrectHeight']],
  ['height + 1', (t) => withHeader(t, { height: t.header.height + 1 }), ['IncorrectHash', 'IncorrectPow', 'IncorrectHeight']],
  ['nonce 0', (t) => withHeader(t, { nonce: 0n }), ['IncorrectHash', 'IncorrectPow']],
  ['nonce + 1', (t) => withHeader(t, { nonce: BigInt.asUintN(64, t.header.nonce + 1n) }), ['IncorrectHash', 'IncorrectPow']],
  [
    'flags 2^56 at 530,499',
    (t) => withHeader(t, { featureFlags: 1n << 56n, height: 530_499 }),
    ['IncorrectHash', 'IncorrectPow', 'IncorrectHeight'],
  ],
  [
    'flags 2^56 at 530,500',
    (t) => withHeader(t, { featureFlags: 1n << 56n, height: 530_500 }),
    ['IncorrectHash', 'IncorrectPow', 'InvalidForkVotes', 'IncorrectForkNumber', 'IncorrectHeight'],
  ],
  ['no adjacents', (t) => withHeader(t, { adjacents: [] }), ['IncorrectHash', 'IncorrectPow', 'AdjacentChainMismatch']],
  [
    'adjacent parents of recap-development',
    (t) => ({ ...t, adjacentParents: t.adjacentParents.map((a) => ({ ...a, version: 'recap-development' })) }),
    ['InvalidAdjacentVersion'],
  ],
  [
    'an adjacent parent of chain 0',
    (t) => ({ ...t, adjacentParents: t.adjacentParents.map((a, i) => (i === 0 ? { ...a, chainId: 0 } : a)) }),
    ['AdjacentParentChainMismatch'],
  ],
]

function withHeader(t: Triple, change: Partial<Header>): Triple {
  return { ...t, header: { ...t.header, ...change } }
}

const sorted = (codes: Iterable<string>): string => [...new Set(codes)].sort().join(' ')

/** Replays the broken testnet04 children and the node's table of changes, counting each case. */
export function replayBroken(data: RealData, count: (what: string, n?: number) => void, problem: (text: string) => void): void {
  for (const { file, parent, header, expected } of data.broken) {
    // The node's older test paired each child with a parent, link or not: the parent stands in as
    // the one named. Below testnet04's OldDAGuard the rules read no adjacent parent but its hash and
    // version: the parent stands in for them too.
    if (!isBefore(header.height, getNetwork(header.version).rules.oldDifficultyAdjustment)) {
      problem(`${file}: the broken child at ${header.height} needs its adjacent parents`)
      continue
    }
    const named = { ...parent, hash: header.parent }
    const adjacentParents = header.adjacents.map(([chainId, hash]) => ({ ...parent, chainId, hash }))
    const found = validateHeader(header, { network: header.version, parent: named, adjacentParents, now: Number.MAX_SAFE_INTEGER }).map(
      (v) => v.code,
    )
    const wanted = expected.filter((name) => name !== 'InvalidFeatureFlags').map((name) => NODE_FAILURE_CODES[name] ?? name)
    const flagged = !expected.includes('InvalidFeatureFlags') || found.some((code) => forkCodes.has(code))
    if (sorted(found.filter((code) => !forkCodes.has(code))) !== sorted(wanted) || !flagged)
      problem(`${file}: the broken child at ${header.height} fails with ${sorted(found)}, the node expects ${expected.join(' ')}`)
    count('broken testnet04 children failing with the codes the node expects')
  }
  const triple = data.triples.find((t) => t.header.version === 'mainnet01' && t.header.height === 318_266)
  if (triple === undefined) return
  const now = Date.now() * 1000
  for (const [name, mutate, expected] of mutations) {
    const t = mutate(triple)
    const found = validateHeader(t.header, {
      network: triple.header.version,
      parent: t.parent,
      adjacentParents: t.adjacentParents,
      now,
    }).map((v) => v.code)
    const wanted = expected.map((failure) => NODE_FAILURE_CODES[failure]!)
    if (sorted(found) !== sorted(wanted)) problem(`318,266 with ${name}: fails with ${sorted(found)}, the node expects ${sorted(wanted)}`)
    count("changes of the node's own table to a real header, failing with the codes it expects")
  }
}
