import { Value } from '@sinclair/typebox/value'
import t from 'tap'
import { Payload, PayloadBatch, PayloadWithOutputs } from '../src/index.js'
import { fixture } from './fixtures/load.js'

const payloads = fixture<Array<Record<string, unknown> & { transactions: Array<[string, string]> }>>('mainnet-payloads.json')

t.test('real payloads match the payload-with-outputs schema in canonical key order', async (t) => {
  for (const p of payloads) t.ok(Value.Check(PayloadWithOutputs, p))
  t.same(Object.keys(PayloadWithOutputs.properties), [
    'transactions',
    'minerData',
    'transactionsHash',
    'outputsHash',
    'payloadHash',
    'coinbase',
  ])
})

t.test('a payload without outputs lists transactions flat and has no coinbase', async (t) => {
  for (const { transactions, coinbase: _, ...rest } of payloads) {
    const flat = { ...rest, transactions: transactions.map(([tx]) => tx) }
    t.ok(Value.Check(Payload, flat))
    if (transactions.length > 0) t.notOk(Value.Check(Payload, { ...rest, transactions }), 'pairs are not a flat list')
  }
  t.notOk(Value.Check(PayloadWithOutputs, { ...payloads[0], minerData: 'not base64url!' }))
})

t.test('a payload batch is an array of hashes, or hashes with their heights', async (t) => {
  const hash = String(payloads[0]?.payloadHash)
  t.ok(Value.Check(PayloadBatch, [hash, `${hash}=`]))
  t.ok(Value.Check(PayloadBatch, []))
  t.ok(Value.Check(PayloadBatch, { heights: [1, 2], hashes: [hash] }))
  t.ok(Value.Check(PayloadBatch, { hashes: [hash] }), 'heights may be left out')
  t.notOk(Value.Check(PayloadBatch, { hashes: 'x' }))
  t.notOk(Value.Check(PayloadBatch, { heights: [-1], hashes: [hash] }))
  t.notOk(Value.Check(PayloadBatch, [1]))
  t.notOk(Value.Check(PayloadBatch, null))
})
