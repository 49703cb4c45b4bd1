import type { FullBlock } from '@weft/types'
import t from 'tap'
import { blockFromJson, blockFromJsonText, blockToJson, blockToJsonText, payloadToJsonText } from '../src/index.js'
import { blockVectors } from './fixtures/helpers.js'

const vector = (i: number) => structuredClone(blockVectors[i] as (typeof blockVectors)[number])

t.test('a full block round-trips through JSON objects and text in both profiles', async (t) => {
  const b = blockFromJson(vector(1))
  t.same(blockToJson(b, 'chainweb'), vector(1))
  const spec = blockToJson(b, 'spec')
  t.equal(spec.header.chainVersion, 'mainnet01')
  t.same(blockFromJson(spec), b)
  t.same(blockFromJsonText(blockToJsonText(b, 'spec')), b)
  t.same(JSON.parse(blockToJsonText(b, 'chainweb')), vector(1))
})

t.test('payload text has the canonical key order whatever order the object had', async (t) => {
  const p = vector(0).payloadWithOutputs
  const reordered = {
    coinbase: p.coinbase,
    payloadHash: p.payloadHash,
    outputsHash: p.outputsHash,
    transactionsHash: p.transactionsHash,
    minerData: p.minerData,
    transactions: p.transactions,
  }
  t.same(Object.keys(JSON.parse(payloadToJsonText(reordered))), [
    'transactions',
    'minerData',
    'transactionsHash',
    'outputsHash',
    'payloadHash',
    'coinbase',
  ])
})

t.test('a full block without payload is refused', async (t) => {
  t.throws(() => blockFromJson({ header: vector(0).header } as unknown as FullBlock), { code: 'INVALID_ENCODING' })
  t.throws(() => blockFromJson({ header: vector(0).header, payloadWithOutputs: null } as unknown as FullBlock), {
    code: 'INVALID_ENCODING',
  })
  t.throws(() => blockFromJson(null as unknown as FullBlock), { code: 'INVALID_ENCODING' })
})

t.test('payload text is byte-for-byte what JSON.stringify gives, for plain and for odd payloads', async (t) => {
  const reference = (p: FullBlock['payloadWithOutputs']): string =>
    JSON.stringify({
      transactions: p.transactions,
      minerData: p.minerData,
      transactionsHash: p.transactionsHash,
      outputsHash: p.outputsHash,
      payloadHash: p.payloadHash,
      coinbase: p.coinbase,
    })
  const p = vector(1).payloadWithOutputs
  const odd: Array<Record<string, unknown>> = [
    {},
    { transactions: [] },
    {
      transactions: [
        ['a', 'b'],
        ['c', 'd=='],
        ['e', 'f'],
      ],
    },
    { transactions: [['a"b', 'c']] },
    { transactions: [['a', 'ü\n']] },
    { transactions: [['a', 'b', 'c']] },
    { transactions: [['a']] },
    { transactions: ['ab'] },
    { transactions: [[1, 'b']] },
    { transactions: 'none' },
    { minerData: 5 },
    { coinbase: 'a\\b' },
    { payloadHash: undefined },
    { outputsHash: '"' },
  ]
  t.equal(payloadToJsonText(p), reference(p))
  for (const change of odd) {
    const q = { ...p, ...change } as FullBlock['payloadWithOutputs']
    t.equal(payloadToJsonText(q), reference(q), JSON.stringify(change))
  }
})
