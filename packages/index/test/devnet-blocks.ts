import t from 'tap'
import { COINBASE_POSITION, deriveEntries } from '../src/derive.js'
import { sameValue } from './fixtures/decimal-value.js'
import { devnetBlocks } from './fixtures/outputs.js'

interface Event {
  params: unknown[]
  name: string
  module: { namespace: string | null; name: string }
}
const decoded = (text: string): Record<string, unknown> => JSON.parse(Buffer.from(text, 'base64url').toString('utf8'))
const qualified = (e: Event) => (e.module.namespace === null ? e.module.name : `${e.module.namespace}.${e.module.name}`)
// The exact text of each TRANSFER amount in an output, in order: the third parameter as written.
const amountTexts = (text: string): string[] =>
  [
    ...Buffer.from(text, 'base64url')
      .toString('utf8')
      .matchAll(/"params":\["[^"]*","[^"]*",(\{"decimal":"[^"]*"\}|[-0-9.eE+]+)\],"name":"TRANSFER"/g),
  ].map((m) => m[1]!.replace(/^\{"decimal":"(.*)"\}$/, '$1'))

t.test('the devnet blocks: every transaction at its position, every event with its parameters, every TRANSFER a transfer', async (t) => {
  const counts = { transactions: 0, events: 0, transfers: 0, crossChain: 0, decimals: 0 }
  for (const block of devnetBlocks()) {
    const entries = deriveEntries(block)
    t.equal(entries.malformed, 0)
    const outputs = [block.payload.coinbase, ...block.payload.transactions.map(([, output]) => output)]
    t.same(
      entries.transactions.map((e) => [e.position, e.requestKey]),
      block.payload.transactions.map(([tx], position) => [position, decoded(tx).hash]),
    )
    const expectedEvents = outputs.flatMap((text, at) =>
      (decoded(text).events as Event[]).map((e, index) => [at - 1, index, qualified(e), e.name, e.params]),
    )
    t.same(
      entries.events.map((e) => [e.position, e.index, e.module, e.name, JSON.parse(e.params)]),
      expectedEvents,
    )
    const amounts = outputs.flatMap((text, at) => amountTexts(text).map((amount) => [at - 1, amount] as const))
    t.equal(entries.transfers.length, amounts.length)
    entries.transfers.forEach((transfer, i) => {
      const [position, amount] = amounts[i]!
      t.equal(transfer.position, position)
      t.ok(sameValue(transfer.amount, amount), `${transfer.amount} = ${amount}`)
      if (amount.length > 17 || amount.includes('e')) counts.decimals++
      if (transfer.sender === '' && transfer.position !== COINBASE_POSITION) {
        t.not(transfer.pactId, undefined, 'a mint names its pact')
        counts.crossChain++
      }
      if (transfer.receiver === '') t.equal(transfer.pactId, transfer.requestKey, "a burn's pact is its own transaction")
    })
    counts.transactions += entries.transactions.length
    counts.events += entries.events.length
    counts.transfers += entries.transfers.length
  }
  t.ok(counts.transactions > 100 && counts.crossChain >= 3 && counts.decimals > 20, JSON.stringify(counts))
})
