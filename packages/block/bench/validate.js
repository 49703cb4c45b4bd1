// Throughput of block validation on one core, next to the raw hashing it cannot avoid.
// Run after `pnpm build`: `pnpm bench`. Not a test: nothing here is asserted.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import {
  blockFromJson,
  computeBlockHash,
  computePayloadHashes,
  decodeHeader,
  encodeHeader,
  getNetwork,
  powHash,
  validateBlock,
} from '../dist/index.js'

const vectors = JSON.parse(readFileSync(new URL('../test/fixtures/mainnet-blocks.json', import.meta.url), 'utf8'))
const [parent, child] = vectors.map(blockFromJson)
const mainnet = getNetwork('mainnet01')
if (validateBlock(child, parent.header, mainnet).length !== 0) throw new Error('the mainnet vector should be valid')

const emptyChild = { header: parent.header, payload: parent.payload }
const grandparent = { ...parent.header, hash: parent.header.parent, height: parent.header.height - 1, creationTime: parent.header.creationTime - 1, weight: parent.header.weight - (child.header.weight - parent.header.weight) }
if (validateBlock(emptyChild, grandparent, mainnet).length !== 0) throw new Error('the made-up grandparent should fit')
const childBytes = encodeHeader(child.header)

// Operations per second of `fn`: the best of several short rounds after a warm-up, because on a
// shared machine other processes only ever make a round slower.
function rate(fn, rounds = 7, ms = 250) {
  for (let i = 0; i < 1000; i++) fn()
  let best = 0
  for (let r = 0; r < rounds; r++) {
    let n = 0
    const start = process.hrtime.bigint()
    const until = start + BigInt(ms) * 1_000_000n
    let now = start
    while (now < until) {
      for (let i = 0; i < 100; i++) fn()
      n += 100
      now = process.hrtime.bigint()
    }
    best = Math.max(best, n / (Number(now - start) / 1e9))
  }
  return best
}

// The hashing a validation cannot avoid, done with bare node:crypto calls: the 11 field leaves
// and 13 inner nodes of the header's Merkle tree (14 leaves), the payload's 4 leaves and 3 inner
// nodes, and one Blake2s-256 over the 286 bytes the proof of work covers.
const leafInput = Buffer.alloc(1 + 2 + 32)
const nodeInput = Buffer.alloc(1 + 64)
const powInput = childBytes.subarray(0, childBytes.length - 32)
function rawHashing() {
  for (let i = 0; i < 11 + 4; i++) createHash('sha512-256').update(leafInput).digest()
  for (let i = 0; i < 13 + 3; i++) createHash('sha512-256').update(nodeInput).digest()
  createHash('blake2s256').update(powInput).digest()
}

const results = [
  ['validateBlock, real mainnet block (1 transaction)', rate(() => validateBlock(child, parent.header, mainnet))],
  ['validateBlock, real mainnet block (0 transactions)', rate(() => validateBlock(emptyChild, grandparent, mainnet))],
  ['decodeHeader + validateBlock from binary', rate(() => validateBlock({ header: decodeHeader(childBytes), payload: child.payload }, parent.header, mainnet))],
  ['computeBlockHash alone', rate(() => computeBlockHash(child.header))],
  ['powHash alone (encode + blake2s)', rate(() => powHash(child.header))],
  ['computePayloadHashes alone (1 transaction)', rate(() => computePayloadHashes(child.payload))],
  ['raw node:crypto hashing of one validation', rate(rawHashing)],
]

console.log(`node ${process.version}, one thread on ${cpus()[0]?.model ?? 'unknown cpu'}, load average ${loadavg()[0].toFixed(2)} on ${cpus().length} cores`)
for (const [name, perSecond] of results) console.log(`${name.padEnd(52)} ${Math.round(perSecond).toLocaleString('en-US').padStart(10)} /s`)
const [, validate] = results[0]
const [, raw] = results[results.length - 1]
console.log(`validation runs at ${((validate / raw) * 100).toFixed(0)}% of the bare hashing rate`)
