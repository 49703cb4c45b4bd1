import { createHash } from 'node:crypto'
import t from 'tap'
import { innerHash, leafHash, merkleRootOfHashes, sha512_256, tagged } from '../src/merkle.js'

const H = (...parts: Buffer[]): Buffer => createHash('sha512-256').update(Buffer.concat(parts)).digest()

t.test('the empty tree is the hash of nothing', async (t) => {
  t.same(merkleRootOfHashes([]), H())
  t.same(sha512_256(), H())
})

t.test('one input leaf is H(0x00 || bytes), a tree node enters unhashed', async (t) => {
  const bytes = Buffer.from('abc')
  t.same(merkleRootOfHashes([leafHash(bytes)]), H(Buffer.from([0]), bytes))
  const node = Buffer.alloc(32, 7)
  t.same(merkleRootOfHashes([node]), node)
})

t.test('trees split at the largest power of two below the leaf count, left first', async (t) => {
  const l = [1, 2, 3, 4, 5].map((i) => leafHash(Buffer.from([i])))
  const [a, b, c, d, e] = l as [Buffer, Buffer, Buffer, Buffer, Buffer]
  t.same(merkleRootOfHashes([a, b]), H(Buffer.from([1]), a, b))
  t.same(merkleRootOfHashes([a, b, c]), innerHash(innerHash(a, b), c))
  t.same(merkleRootOfHashes([a, b, c, d, e]), innerHash(innerHash(innerHash(a, b), innerHash(c, d)), e))
})

t.test('a tagged input starts with the tag as two big-endian bytes', async (t) => {
  t.same(tagged(0x0102, Buffer.from([9])), Buffer.from([1, 2, 9]))
})
