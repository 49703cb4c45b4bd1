import { encodeU256 } from '@weft/block'
import { encodeHash } from '@weft/hash-text'
import t from 'tap'
import { compareHeaders } from '../src/index.js'

const ranked = (weight: bigint, firstHashByte: number) => ({
  weight: encodeHash(encodeU256(weight)),
  hash: encodeHash(Buffer.alloc(32, firstHashByte)),
})

t.test('the heavier header wins whatever the hashes', async (t) => {
  t.ok(compareHeaders(ranked(1000n, 9), ranked(999n, 1)) > 0)
  t.ok(compareHeaders(ranked(999n, 1), ranked(1000n, 9)) < 0)
  // Weights are little-endian: a high byte must outweigh many low ones.
  t.ok(compareHeaders(ranked(1n << 200n, 5), ranked((1n << 200n) - 1n, 5)) > 0)
})

t.test('between equal weights the lower raw hash wins, and a header ties with itself', async (t) => {
  t.ok(compareHeaders(ranked(7n, 1), ranked(7n, 2)) > 0)
  t.ok(compareHeaders(ranked(7n, 2), ranked(7n, 1)) < 0)
  t.equal(compareHeaders(ranked(7n, 3), ranked(7n, 3)), 0)
})
