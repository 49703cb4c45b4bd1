import { Value } from '@sinclair/typebox/value'
import t from 'tap'
import { Payload, PayloadWithOutputs } from '../src/index.js'
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
