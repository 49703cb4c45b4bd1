import { mkdirSync, writeFileSync } from 'node:fs'
import t, { type Test } from 'tap'
import { compareVectors, vectorCopies } from '../src/check-vectors.js'

function layout(t: Test, repo: Record<string, string>, shared: Record<string, string>): { root: string; shared: string } {
  const dir = t.testdir()
  mkdirSync(`${dir}/root/fixtures/vectors`, { recursive: true })
  mkdirSync(`${dir}/root/packages/block/src/data`, { recursive: true })
  mkdirSync(`${dir}/shared`, { recursive: true })
  for (const [path, text] of Object.entries(repo)) writeFileSync(`${dir}/root/${path}`, text)
  for (const [name, text] of Object.entries(shared)) writeFileSync(`${dir}/shared/${name}`, text)
  return { root: `${dir}/root`, shared: `${dir}/shared` }
}

t.test('equal copies give no differences', async (t) => {
  const { root, shared } = layout(
    t,
    { 'fixtures/vectors/a.json': '1', 'packages/block/src/data/genesis-x.json': '2', 'fixtures/vectors/genesis-x.json': '2' },
    { 'a.json': '1', 'genesis-x.json': '2' },
  )
  t.same(compareVectors(root, shared), [])
  t.equal(vectorCopies(root).length, 3)
})

t.test('a changed, a missing and an unknown file are each named', async (t) => {
  const { root, shared } = layout(
    t,
    { 'fixtures/vectors/a.json': '1', 'fixtures/vectors/extra.json': '{}', 'packages/block/src/data/genesis-x.json': 'old' },
    { 'a.json': '1 ', 'genesis-x.json': 'new', 'b.json': '3' },
  )
  t.same(
    compareVectors(root, shared).sort((x, y) => x.copy.localeCompare(y.copy)),
    [
      { copy: 'fixtures/vectors/a.json', problem: 'differs' },
      { copy: 'fixtures/vectors/b.json', problem: 'missing in the repository' },
      { copy: 'fixtures/vectors/extra.json', problem: 'not in the shared vectors' },
      { copy: 'fixtures/vectors/genesis-x.json', problem: 'missing in the repository' },
      { copy: 'packages/block/src/data/genesis-x.json', problem: 'differs' },
    ],
  )
})
