import { Value } from '@sinclair/typebox/value'
import t from 'tap'
import { BlockHeader, ChainwebBlockHeader, ChainwebHeaderUpdate, HeaderUpdate } from '../src/index.js'
import { fixture, toSpec } from './fixtures/load.js'

const headers = fixture<Array<{ object: Record<string, unknown> }>>('mainnet-headers.json').map((v) => v.object)
const updates = fixture<Array<Record<string, unknown> & { header: Record<string, unknown> }>>('mainnet-header-updates.json')

t.test('real mainnet headers match the chainweb schema and, renamed, the spec schema', async (t) => {
  for (const h of headers) {
    t.ok(Value.Check(ChainwebBlockHeader, h))
    t.notOk(Value.Check(BlockHeader, h), 'the spec profile needs chainVersion')
    t.ok(Value.Check(BlockHeader, toSpec(h)))
    t.notOk(Value.Check(ChainwebBlockHeader, toSpec(h)))
  }
})

t.test('the header schema lists the fields in the canonical order', async (t) => {
  t.same(Object.keys(BlockHeader.properties), [
    'nonce',
    'creationTime',
    'parent',
    'adjacents',
    'target',
    'payloadHash',
    'chainId',
    'weight',
    'height',
    'chainVersion',
    'epochStart',
    'featureFlags',
    'hash',
  ])
  t.same(Object.keys(ChainwebBlockHeader.properties)[9], 'chainwebVersion')
})

t.test('malformed header fields are refused', async (t) => {
  const h = headers[0] as Record<string, unknown>
  const bad: Array<Record<string, unknown>> = [
    { nonce: 5 },
    { nonce: '-5' },
    { parent: 'too-short' },
    { adjacents: { x: h.parent } },
    { chainId: -1 },
    { height: 1.5 },
    { chainwebVersion: 'mainnet02' },
    { featureFlags: -1 },
    { extra: true },
  ]
  for (const change of bad) t.notOk(Value.Check(ChainwebBlockHeader, { ...h, ...change }), JSON.stringify(change))
})

t.test('real header update events match the update schemas of both profiles', async (t) => {
  for (const u of updates) {
    t.ok(Value.Check(ChainwebHeaderUpdate, u))
    t.ok(Value.Check(HeaderUpdate, { ...u, header: toSpec(u.header) }))
    t.notOk(Value.Check(HeaderUpdate, { ...u, header: toSpec(u.header), powHash: 'ABC' }), 'hex digits are lowercase')
  }
})
