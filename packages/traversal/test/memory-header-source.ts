import t from 'tap'
import { type HeaderRef, isAncestorSource, MemoryHeaderSource } from '../src/index.js'
import { hashOf } from './fixtures/block-tree.js'

const ref = (name: string, height: number): HeaderRef => ({ hash: hashOf(name), parent: hashOf(`${name}:parent`), height, chainId: 0 })

t.test('a memory source answers the refs it holds, in the order asked, undefined for others', async (t) => {
  const [a, b] = [ref('a', 1), ref('b', 2)]
  const source = new MemoryHeaderSource([a, b])
  t.equal(source.size, 2)
  t.same(await source.getRefs([b.hash, hashOf('unknown'), new Uint8Array(a.hash)]), [b, undefined, a])
  t.equal(source.get(a.hash), a)
  t.same([...source.refs()], [a, b])
  t.notOk(isAncestorSource(source), 'it has no ancestorAt of its own')
})

t.test('adding a ref with a hash already held replaces it; an empty source answers undefined', async (t) => {
  const source = new MemoryHeaderSource()
  t.same(await source.getRefs([hashOf('a')]), [undefined])
  source.add(ref('a', 1))
  const replacement = { ...ref('a', 1), height: 7 }
  source.add(replacement)
  t.equal(source.size, 1)
  t.equal(source.get(hashOf('a')), replacement)
})
