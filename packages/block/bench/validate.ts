// Throughput of block validation on one core, next to the raw hashing it cannot avoid.
// Run after `pnpm build`: `pnpm bench`. Not a test: nothing here is asserted.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import {
  type Block,
  blockFromJson,
  computeBlockHash,
  computePayloadHashes,
  decodeHeader,
  encodeHeader,
  getNetwork,
  type Header,
  powHash,
  validateBlock,
} from '@weft/block'
import type { ChainwebFullBlock } from '@weft/types'

// The real mainnet blocks kept in the repository (fixtures/README.md); from .bench/ as from bench/.
const vectors = JSON.parse(
  readFileSync(new URL('../../../fixtures/vectors/mainnet-blocks.json', import.meta.url), 'utf8'),
) as ChainwebFullBlock[]
const [parent, child] = vectors.map(blockFromJson) as [Block, Block]
const mainnet = getNetwork('mainnet01')
// Stand-ins for a block's adjacent parents, which the repository does not keep: blocks of the named
// hashes shaped like `like` (the rules read their times, targets and flags, not their own hashes).
const standIns = (header: Header, like: Header): Header[] => header.adjacents.map(([chainId, hash]) => ({ ...like, chainId, hash }))
const childContext = { network: mainnet, parent: parent.header, adjacentParents: standIns(child.header, parent.header) }
if (validateBlock(child, childContext).length !== 0) throw new Error('the mainnet vector should be valid')

const emptyChild: Block = { header: parent.header, payload: parent.payload }
const grandparent: Header = {
  ...parent.header,
  hash: parent.header.parent,
  height: parent.header.height - 1,
  creationTime: parent.header.creationTime - 1,
  weight: parent.header.weight - (child.header.weight - parent.header.weight),
}
const emptyContext = { network: mainnet, parent: grandparent, adjacentParents: standIns(parent.header, grandparent) }
if (validateBlock(emptyChild, emptyContext).length !== 0) throw new Error('the made-up grandparent should fit')
const childBytes = encodeHeader(child.header)

// Operations per CPU-second of each benchmark. CPU time (process.cpuUsage) rather than wall time,
// because on a shared machine other processes take the core away for stretches of wall time;
// rounds run round-robin and the best round counts, since contention (caches) only slows a round.
type Benchmark = readonly [name: string, run: () => unknown]

function rates(benchmarks: readonly Benchmark[], rounds = 15, ms = 100): Array<readonly [string, number]> {
  for (const [, fn] of benchmarks) for (let i = 0; i < 1000; i++) fn()
  const best: number[] = benchmarks.map(() => 0)
  for (let r = 0; r < rounds; r++) {
    benchmarks.forEach(([, fn], b) => {
      let n = 0
      const start = process.cpuUsage()
      let used = 0
      while (used < ms * 1000) {
        for (let i = 0; i < 50; i++) fn()
        n += 50
        const d = process.cpuUsage(start)
        used = d.user + d.system
      }
      best[b] = Math.max(best[b]!, n / (used / 1e6))
    })
  }
  return benchmarks.map(([name], b) => [name, best[b]!] as const)
}

// The hashing a validation cannot avoid, done with bare node:crypto calls: the 11 field leaves
// and 13 inner nodes of the header's Merkle tree (14 leaves), the payload's 4 leaves and 3 inner
// nodes, and one Blake2s-256 over the 286 bytes the proof of work covers.
const leafInput = Buffer.alloc(1 + 2 + 32)
const nodeInput = Buffer.alloc(1 + 64)
const powInput = childBytes.subarray(0, childBytes.length - 32)
function rawHashing(): void {
  for (let i = 0; i < 11 + 4; i++) createHash('sha512-256').update(leafInput).digest()
  for (let i = 0; i < 13 + 3; i++) createHash('sha512-256').update(nodeInput).digest()
  createHash('blake2s256').update(powInput).digest()
}

const results = rates([
  ['validateBlock, real mainnet block (1 transaction)', () => validateBlock(child, childContext)],
  ['validateBlock, real mainnet block (0 transactions)', () => validateBlock(emptyChild, emptyContext)],
  [
    'decodeHeader + validateBlock from binary',
    () => validateBlock({ header: decodeHeader(childBytes), payload: child.payload }, childContext),
  ],
  ['computeBlockHash alone', () => computeBlockHash(child.header)],
  ['powHash alone (encode + blake2s)', () => powHash(child.header)],
  ['computePayloadHashes alone (1 transaction)', () => computePayloadHashes(child.payload)],
  ['raw node:crypto hashing of one validation', rawHashing],
])

console.log(
  `node ${process.version}, one thread on ${cpus()[0]?.model ?? 'unknown cpu'}, load average ${loadavg()[0]!.toFixed(2)} on ${cpus().length} cores`,
)
for (const [name, perSecond] of results)
  console.log(`${name.padEnd(52)} ${Math.round(perSecond).toLocaleString('en-US').padStart(10)} per CPU-second`)
const [, validate] = results[0]!
const [, raw] = results[results.length - 1]!
console.log(`validation runs at ${((validate / raw) * 100).toFixed(0)}% of the bare hashing rate`)
