import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { type FixtureBlock, INDEX_FIXTURE } from '../src/index-fixture.js'
import { checkIndexVectors, runIndexVectors } from '../src/index-vectors.js'

// A folder shaped like the shared vectors' kadena-js, holding the devnet blocks of @weft/index's tests.
function folderOf(t: Test, blocks: readonly FixtureBlock[]): string {
  const root = t.testdir({ real: { 'kadena-js': {} } })
  const folder = join(root, 'real', 'kadena-js')
  writeFileSync(join(folder, 'payloads-with-outputs-3306537-3306636.json'), JSON.stringify(blocks.map((block) => block.payload)))
  // The fixture keeps no parents or times: any stand in, /poll's metadata only has to carry them.
  const items = blocks.map(({ chain, height, hash, payload }) => ({
    chainId: chain,
    height,
    hash,
    payloadHash: payload.payloadHash,
    creationTime: 1_700_000_000_000_000 + height,
    parent: payload.payloadHash,
  }))
  writeFileSync(join(folder, 'header-branch-page1.json'), JSON.stringify({ items: items.slice(0, 30) }))
  writeFileSync(join(folder, 'header-branch-page2.json'), JSON.stringify({ items: items.slice(30) }))
  return root
}
const blocks = JSON.parse(readFileSync(new URL(`../../../${INDEX_FIXTURE}`, import.meta.url), 'utf8')) as FixtureBlock[]

t.test('every request key is found at its block and position, every coin.TRANSFER amount exact', async (t) => {
  const report = await checkIndexVectors(join(folderOf(t, blocks), 'real', 'kadena-js'))
  t.same(report?.problems, [])
  t.equal(report?.blocks, blocks.length)
  t.equal(report?.found, report?.transactions)
  t.equal(report?.polled, report?.transactions, "every /poll result is the payload's output with the block's metadata")
  t.ok(report!.transactions > 100 && report!.coinTransfers > 100)
  t.equal(report?.exactAmounts, report?.coinTransfers)
  t.ok(report!.bytes.perTransaction > 100 && report!.bytes.perEvent > 2, JSON.stringify(report!.bytes))
})

t.test('a payload that no header names is a problem, and the check fails', async (t) => {
  const root = folderOf(t, blocks)
  const folder = join(root, 'real', 'kadena-js')
  const page = JSON.parse(readFileSync(join(folder, 'header-branch-page1.json'), 'utf8')) as { items: unknown[] }
  writeFileSync(join(folder, 'header-branch-page1.json'), JSON.stringify({ items: page.items.slice(1) }))
  const report = await checkIndexVectors(folder)
  t.match(report?.problems, [/no header names it/])
  t.equal(await runIndexVectors(root), 1)
})

t.test('without the shared vectors the check says it skipped and passes', async (t) => {
  t.equal(await checkIndexVectors(t.testdir()), undefined)
  t.equal(await runIndexVectors(t.testdir()), 0)
})
