import t from 'tap'
import { type HeaderRef, type HeaderSource, MemoryHeaderSource } from '../src/index.js'
import { type HeaderSourceFactory, headerSourceSuite, refsOfTree, suiteTree } from '../src/suite/index.js'
import { JumpingSource } from './fixtures/block-tree.js'

const memory: HeaderSourceFactory = async (tree) => {
  const refs = refsOfTree(tree)
  return { source: new MemoryHeaderSource(refs), refs }
}

t.test('the in-memory source passes the HeaderSource suite', async (t) => {
  headerSourceSuite((name, fn) => t.test(name, fn), memory)
})

t.test('an in-memory source with ancestorAt passes the suite, ancestorAt included, and is closed after each test', async (t) => {
  let closed = 0
  headerSourceSuite(
    (name, fn) => t.test(name, fn),
    async (tree) => {
      const refs = refsOfTree(tree, 'jumping')
      return { source: new JumpingSource(refs), refs, close: async () => void closed++ }
    },
  )
  t.test('every source was closed after its test', async (t) => {
    t.equal(closed, 8)
  })
})

// Runs every test of the suite against `build` and returns the names of those that failed.
async function failures(build: HeaderSourceFactory): Promise<string[]> {
  const tests: Array<{ name: string; fn: () => Promise<void> }> = []
  headerSourceSuite((name, fn) => tests.push({ name, fn }), build)
  const failed: string[] = []
  for (const { name, fn } of tests) await fn().catch(() => failed.push(name))
  return failed
}

// A memory source whose answers pass through `change`.
const broken =
  (change: (answers: Array<HeaderRef | undefined>, hashes: readonly Uint8Array[]) => Array<HeaderRef | undefined>): HeaderSourceFactory =>
  async (tree) => {
    const refs = refsOfTree(tree)
    const inner = new MemoryHeaderSource(refs)
    const source: HeaderSource = { getRefs: async (hashes) => change(await inner.getRefs(hashes), hashes) }
    return { source, refs }
  }

t.test('the suite fails sources that break the contract', async (t) => {
  const reversed = await failures(broken((answers) => [...answers].reverse()))
  t.ok(reversed.includes('getRefs answers every block with its hash, parent, height and chain, in the order asked'))
  const deduplicated = await failures(broken((answers) => [...new Set(answers)]))
  t.ok(deduplicated.includes('an answer has one entry per hash asked: a repeated hash twice, an empty batch none'))
  const wrongChain = await failures(broken((answers) => answers.map((ref) => ref && { ...ref, chainId: ref.chainId + 1 })))
  t.ok(wrongChain.includes('one batch may mix blocks of every chain, and hashes may be plain Uint8Arrays'))
  const notBuffers = await failures(broken((answers) => answers.map((ref) => ref && { ...ref, hash: new Uint8Array(ref.hash) as Buffer })))
  t.equal(notBuffers.length, 7, 'every test that reads an answer')
})

t.test('the suite refuses a factory whose refs do not have the shape of the tree', async (t) => {
  const tree = suiteTree()
  const shapes: Array<(refs: HeaderRef[]) => HeaderRef[]> = [
    (refs) => refs.slice(1),
    (refs) => refs.map((ref) => ({ ...ref, chainId: 9 })),
    (refs) => refs.map((ref, index) => (index === 1 ? { ...ref, parent: ref.hash } : ref)),
    (refs) => refs.map((ref, index) => (index === 1 ? { ...ref, height: 0 } : ref)),
  ]
  for (const reshape of shapes) {
    const failed = await failures(async () => {
      const refs = reshape(refsOfTree(tree))
      return { source: new MemoryHeaderSource(refs), refs }
    })
    t.equal(failed.length, 8, 'every test fails')
  }
})
