import type { IndexedBlock } from '@weft/store'
import t from 'tap'
import { blockMetadata, withBlockMetadata } from '../../src/pact/command-results.js'
import { inLegacyOrder, legacyTextHash } from '../../src/pact/legacy-order.js'

const block: IndexedBlock = {
  chain: 3,
  height: 42,
  hash: 'NEnEHB90F57tmoE2QJ1GzPkF27ZUzGYXP3txaVv55O4',
  parent: 'XOLILlA9gCXTDhh8juM7qaSt4YjYXzkgsCQuBBRCFiI',
  creationTime: 1563388627613832,
  canonical: true,
  depth: 0,
}
const metadata = blockMetadata(block)

t.test("metaData is written in Pact's legacy map order, with the block's facts", async (t) => {
  t.same(Object.keys(JSON.parse(metadata)), inLegacyOrder(['blockHeight', 'blockHash', 'prevBlockHash', 'blockTime']))
  t.same(JSON.parse(metadata), { blockTime: block.creationTime, prevBlockHash: block.parent, blockHash: block.hash, blockHeight: 42 })
})

t.test('the legacy order is that of unordered-containers 0.2.15 with hashable 1.3.0', async (t) => {
  // The order chainweb-node's /poll answers have always shown for its metaData object.
  t.same(inLegacyOrder(['blockHeight', 'blockTime', 'blockHash', 'prevBlockHash']), [
    'blockTime',
    'prevBlockHash',
    'blockHash',
    'blockHeight',
  ])
  // FNV-1 of the empty text is the salt itself; one byte more multiplies and mixes it in.
  t.equal(legacyTextHash(''), 0xdc36d1615b7400a4n)
  t.equal(legacyTextHash('a'), ((((0xdc36d1615b7400a4n * 16777619n) & ((1n << 64n) - 1n)) ^ 0x61n) * 16777619n) & ((1n << 64n) - 1n))
  t.same(inLegacyOrder([]), [])
  const keys = ['x', 'y', 'z', 'reqKey', 'gas']
  t.same(inLegacyOrder(keys), inLegacyOrder([...keys].reverse()), 'independent of the order given')
})

t.test('withBlockMetadata replaces metaData and keeps every other byte', async (t) => {
  const stored =
    '{"gas":1,"result":{"status":"success","data":{"a":"}\\"{,","b":[1,2.50e-3]}},"reqKey":"k","logs":null,"metaData":null,"continuation":null,"txId":7}'
  const answered = withBlockMetadata(stored, block)
  t.equal(answered, stored.replace('"metaData":null', `"metaData":${metadata}`))
  t.equal(withBlockMetadata('{ "metaData" : {"x": [1, {"y": "}"}]} , "txId" : 1 }', block), `{ "metaData" : ${metadata} , "txId" : 1 }`)
  t.equal(withBlockMetadata('{"txId":1,"metaData":3}', block), `{"txId":1,"metaData":${metadata}}`, 'a number, last')
  t.equal(withBlockMetadata('{"metaData":"text","txId":1}', block), `{"metaData":${metadata},"txId":1}`, 'a string')
  t.equal(withBlockMetadata('{"gas":1,"txId":null}', block), `{"gas":1,"txId":null,"metaData":${metadata}}`, 'absent: added last')
  t.equal(withBlockMetadata('{}', block), `{"metaData":${metadata}}`, 'an empty object')
  t.equal(
    withBlockMetadata('{"m\\"etaData":true,"x":false}', block),
    `{"m\\"etaData":true,"x":false,"metaData":${metadata}}`,
    'an escaped key is another key',
  )
})
