// Replays real block data by Weft's own decoders and rules: every header's hash, proof of work and
// both encodings; parent links, weights, the epoch-start and target rules, braiding and full
// validation where the parents are there; payload hashes; cut ids in the order written.
import {
  braidingViolations,
  computeBlockHash,
  computePayloadHashes,
  decodeHeader,
  difficulty,
  encodeHeader,
  expectedEpochStart,
  expectedTarget,
  getNetwork,
  type Header,
  headerFromJsonText,
  headerToJsonText,
  isGenesisHeader,
  isLastInEpoch,
  powHash,
  powHashHex,
  stringifyJsonExact,
  targetHex,
  validateHeader,
} from '@weft/block'
import { encodeHash } from '@weft/hash-text'
import { replayBroken } from './broken.js'
import { replayCuts } from './cuts.js'
import type { HeaderRun, LayerRun, RealData, RealHeader } from './sources.js'

/** What a replay counted, in the order it counted it, and every problem it found (none: the data keeps every rule). */
export interface Replay {
  readonly counts: Map<string, number>
  readonly problems: string[]
}

const FLAGS_EXACT = 2n ** 53n
// Headers of a replay are judged by the rules alone: their creation times lie in the past of any clock.
const anyTime = Number.MAX_SAFE_INTEGER

/** Whether two headers are the same header: every field, the version included. */
export const sameHeader = (a: Header, b: Header): boolean => a.version === b.version && encodeHeader(a).equals(encodeHeader(b))

const where = (file: string, h: Header): string => `${file}: chain ${h.chainId} at ${h.height} (${encodeHash(h.hash)})`

/** Replays everything `data` holds. */
export function replay(data: RealData): Replay {
  const counts = new Map<string, number>()
  const problems: string[] = []
  const count = (what: string, n = 1): void => void counts.set(what, (counts.get(what) ?? 0) + n)
  // Layers come twice (the files as found and decoded): each header counts once.
  const seen = new Set<string>()
  const countOnce = (what: string, header: Header): void => {
    const key = `${what}/${encodeHash(header.hash)}`
    if (!seen.has(key)) count(what)
    seen.add(key)
  }
  const problem = (text: string): void => void problems.push(text)
  replayHeaders(data.headers, count, problem)
  for (const run of data.runs) replayRun(run, count, problem)
  for (const run of data.layers) replayLayers(run, countOnce, problem)
  for (const { file, header, parent, adjacentParents } of data.triples) {
    const found = [
      ...validateHeader(header, { network: header.version, parent, adjacentParents, now: anyTime }),
      ...braidingViolations(header, adjacentParents, parent),
    ]
    if (found.length > 0) problem(`${where(file, header)}: ${found.map((v) => `${v.code} (${v.message})`).join('; ')}`)
    count('headers validated with their parent and adjacent parents (the node test triples)')
  }
  replayBroken(data, count, problem)
  for (const { file, payloads } of data.payloads) {
    const byPayloadHash = new Map(data.headers.map(({ header }) => [encodeHash(header.payloadHash), header]))
    for (const payload of payloads) {
      const computed = computePayloadHashes(payload)
      const stated = [payload.transactionsHash, payload.outputsHash, payload.payloadHash]
      const hashes = [computed.transactionsHash, computed.outputsHash, computed.payloadHash].map((hash) => encodeHash(hash))
      if (hashes.some((hash, i) => hash !== stated[i])) problem(`${file}: payload ${payload.payloadHash} hashes to ${hashes.join(', ')}`)
      count('payloads whose three hashes recompute')
      if (byPayloadHash.has(hashes[2]!)) count("payloads that are a replayed header's payload")
      count('transactions in them', payload.transactions.length)
    }
  }
  replayCuts(data.cuts, count, problem)
  for (const { file, header, powHash: pow, target } of data.updates) {
    if (pow !== powHashHex(header) || target !== targetHex(header.target))
      problem(`${where(file, header)}: powHash or target differs from the header's`)
    count('header update events whose powHash and target recompute')
  }
  const parents = new Map<string, number>()
  for (const { header } of data.updates) {
    const key = `${header.chainId}:${encodeHash(header.parent)}`
    parents.set(key, (parents.get(key) ?? 0) + 1)
  }
  const forks = [...parents.values()].filter((n) => n > 1).length
  if (forks > 0) count('forks among the update events (siblings of one parent)', forks)
  return { counts, problems }
}

// Each header: its hash, proof of work, binary, both JSON profiles, and the node's JSON object when there is one.
function replayHeaders(headers: readonly RealHeader[], count: (what: string, n?: number) => void, problem: (text: string) => void): void {
  const distinct = new Map<string, Header>()
  for (const { file, header, binary, object } of headers) {
    const at = where(file, header)
    if (!computeBlockHash(header).equals(header.hash)) problem(`${at}: the hash does not recompute`)
    if (!isGenesisHeader(header) && powHash(header) > header.target) problem(`${at}: the proof of work is above the target`)
    if (binary !== undefined && !encodeHeader(header).equals(binary)) problem(`${at}: the binary does not encode back to the same bytes`)
    if (!sameHeader(decodeHeader(encodeHeader(header)), header)) problem(`${at}: the binary encoding does not decode back`)
    for (const profile of ['spec', 'chainweb'] as const)
      if (!sameHeader(headerFromJsonText(headerToJsonText(header, profile)), header))
        problem(`${at}: the ${profile} JSON does not decode back`)
    const key = encodeHash(header.hash)
    const seen = distinct.get(key)
    // A header given both as a node's JSON object and as a binary (kadena.ex's pages) decodes to one header.
    if (seen !== undefined && !sameHeader(seen, header)) problem(`${at}: two different headers carry this hash`)
    distinct.set(key, header)
    // A header at its chain's genesis height must be the network's genesis block, which Weft builds itself.
    if (isGenesisHeader(header) && validateHeader(header, { network: header.version, now: anyTime }).length > 0)
      problem(`${at}: not the genesis block Weft builds for ${header.version}`)
    count('header records')
    if (object !== undefined && stringifyJsonExact(object) === headerToJsonText(header, 'chainweb'))
      count("node JSON objects equal to Weft's text, key for key")
  }
  for (const header of distinct.values()) {
    if (isGenesisHeader(header)) count('of them genesis blocks, equal to the ones Weft builds')
    count(`distinct headers of ${header.version} (hash, proof of work, binary and both JSON profiles)`)
    if (header.featureFlags >= FLAGS_EXACT) count('of them with featureFlags of 2^53 or more, exact through every encoding')
  }
}

// A run on one chain: parent links, heights, weights; the epoch-start rule; within an epoch, the parent's target.
function replayRun(run: HeaderRun, count: (what: string, n?: number) => void, problem: (text: string) => void): void {
  for (let i = 1; i < run.headers.length; i++) {
    const parent = run.headers[i - 1]!
    const child = run.headers[i]!
    const at = where(run.file, child)
    if (!child.parent.equals(parent.hash) || child.height !== parent.height + 1 || child.chainId !== parent.chainId)
      problem(`${at}: does not follow ${encodeHash(parent.hash)}`)
    if (child.weight !== parent.weight + difficulty(child.target)) problem(`${at}: the weight is not the parent's plus the difficulty`)
    if (child.epochStart !== expectedEpochStart(parent, child.creationTime)) problem(`${at}: the epoch start breaks the rule`)
    const starts = isLastInEpoch(getNetwork(parent.version).rules, parent.height)
    if (!starts && child.target !== parent.target) problem(`${at}: the target changed within an epoch`)
    count('parent links followed (height, weight, epoch start)')
    if (starts) count("epoch starts in runs without adjacent parents (epoch start = the parent's creation time)")
  }
}

// Complete layers: every header of a layer validated in full against the layer below, braiding included.
function replayLayers(run: LayerRun, count: (what: string, header: Header) => void, problem: (text: string) => void): void {
  for (let i = 1; i < run.layers.length; i++) {
    const below = run.layers[i - 1]!
    for (const header of run.layers[i]!) {
      const parent = below.find((h) => h.hash.equals(header.parent))
      const found = [
        ...validateHeader(header, { network: header.version, parent, adjacentParents: below, now: anyTime }),
        ...braidingViolations(header, below, parent),
      ]
      if (found.length > 0) problem(`${where(run.file, header)}: ${found.map((v) => `${v.code} (${v.message})`).join('; ')}`)
      count('headers validated in full against the layer below (braiding included)', header)
      if (parent === undefined || !isLastInEpoch(getNetwork(parent.version).rules, parent.height)) continue
      const adjacentParents = header.adjacents.map(([, hash]) => below.find((h) => h.hash.equals(hash))!)
      if (expectedTarget(parent, adjacentParents, header.creationTime) !== header.target)
        problem(`${where(run.file, header)}: the new target does not recompute`)
      count(`new targets recomputed exactly at the epoch start of height ${header.height}`, header)
    }
  }
}
