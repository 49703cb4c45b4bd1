import fc from 'fast-check'
import t from 'tap'
import { compareHeads, type HeadCandidate, isBetterHead } from '../src/index.js'
import { hashArb, holds, u256Arb } from './fixtures/helpers.js'

// Few distinct weights and hashes, so that ties and equal blocks come up often.
const candidateArb: fc.Arbitrary<HeadCandidate> = fc.record({
  weight: fc.oneof(fc.bigInt({ min: 0n, max: 3n }), u256Arb),
  hash: fc.oneof(fc.constantFrom(Buffer.alloc(32, 0), Buffer.alloc(32, 1), Buffer.alloc(32, 0xff)), hashArb),
})

const head = (weight: bigint, byte: number): HeadCandidate => ({ weight, hash: Buffer.alloc(32, byte) })

t.test('the heavier head wins whatever the hashes', async (t) => {
  t.ok(isBetterHead(head(10n, 0xff), head(9n, 0x00)))
  t.notOk(isBetterHead(head(9n, 0x00), head(10n, 0xff)))
  t.equal(compareHeads(head(10n, 0xff), head(9n, 0x00)), -1)
  t.equal(compareHeads(head(9n, 0x00), head(10n, 0xff)), 1)
})

t.test('equal weights go to the lower raw hash, bytes compared unsigned', async (t) => {
  const low = { weight: 5n, hash: Buffer.concat([Buffer.of(0x7f), Buffer.alloc(31, 0xff)]) }
  const high = { weight: 5n, hash: Buffer.concat([Buffer.of(0x80), Buffer.alloc(31, 0x00)]) }
  t.ok(isBetterHead(low, high))
  t.notOk(isBetterHead(high, low))
  t.ok(compareHeads(low, high) < 0)
})

t.test('a block is not better than itself and compares equal to itself', async (t) => {
  const block = head(7n, 3)
  t.notOk(isBetterHead(block, block))
  t.equal(compareHeads(block, { weight: 7n, hash: new Uint8Array(32).fill(3) }), 0, 'a Uint8Array hash compares by its bytes')
})

t.test('compareHeads is a total order: antisymmetric, transitive, and zero only for equal weight and hash', async (t) => {
  holds(
    t,
    fc.property(candidateArb, candidateArb, candidateArb, (a, b, c) => {
      const ab = compareHeads(a, b)
      const same = a.weight === b.weight && Buffer.from(a.hash).equals(b.hash)
      const transitive = !(ab <= 0 && compareHeads(b, c) <= 0) || compareHeads(a, c) <= 0
      return Math.sign(ab) === -Math.sign(compareHeads(b, a)) && (ab === 0) === same && transitive
    }),
  )
})

t.test('isBetterHead agrees with sorting by compareHeads: the first of a sorted list beats every other block', async (t) => {
  holds(
    t,
    fc.property(fc.array(candidateArb, { minLength: 1, maxLength: 8 }), (candidates) => {
      const [best, ...rest] = [...candidates].sort(compareHeads)
      return rest.every((other) => !isBetterHead(other, best!) && (isBetterHead(best!, other) || compareHeads(best!, other) === 0))
    }),
  )
})
