import { Type } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import t from 'tap'
import { BlockPage, ChainwebBlockPage, ChainwebFullBlock, FullBlock, PageOf } from '../src/index.js'
import { fixture, toSpec } from './fixtures/load.js'

const blocks = fixture<Array<{ header: Record<string, unknown>; payloadWithOutputs: unknown }>>('mainnet-blocks.json')
const spec = blocks.map((b) => ({ header: toSpec(b.header), payloadWithOutputs: b.payloadWithOutputs }))

t.test('real mainnet full blocks match the full block schema of their profile', async (t) => {
  for (const b of blocks) t.ok(Value.Check(ChainwebFullBlock, b))
  for (const b of spec) t.ok(Value.Check(FullBlock, b))
  t.notOk(Value.Check(FullBlock, { header: spec[0]?.header }), 'the payload is required')
})

t.test('a page carries limit, items and a next cursor or null', async (t) => {
  const next = `inclusive:${String(blocks[1]?.header.hash)}`
  t.ok(Value.Check(BlockPage, { limit: 2, items: spec, next: null }))
  t.ok(Value.Check(ChainwebBlockPage, { limit: 2, items: blocks, next: `exclusive:${String(blocks[1]?.header.hash)}` }))
  t.ok(Value.Check(BlockPage, { limit: 1, items: spec.slice(0, 1), next }))
  t.notOk(Value.Check(BlockPage, { limit: 1, items: spec.slice(0, 1), next: 'Inclusive:abc' }))
  t.notOk(Value.Check(BlockPage, { limit: 1, items: spec.slice(0, 1) }), 'next is required, null at the end')
  t.same(Object.keys(BlockPage.properties), ['limit', 'items', 'next'])
})

t.test('pages of any item can be described', async (t) => {
  const HashPage = PageOf(Type.String())
  t.ok(Value.Check(HashPage, { limit: 1, items: ['x'], next: null }))
})
