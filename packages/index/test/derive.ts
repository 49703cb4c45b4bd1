import t from 'tap'
import { COINBASE_POSITION, deriveEntries } from '../src/derive.js'
import { InvalidBlockRefError } from '../src/errors.js'
import { b64, blockOf, coinbaseKey, continuation, event, output, payload, requestKey, transfer } from './fixtures/outputs.js'

const gas = (sender: string) => transfer(sender, 'miner', '7.41e-3')

t.test('a block yields its transactions, events and transfers, each at its position', async (t) => {
  const [plain, burn, mint] = [requestKey('plain'), requestKey('burn'), requestKey('mint')]
  const block = blockOf(
    payload([
      output(plain, [gas('k:a'), transfer('k:a', 'k:b', '2.82633000')]),
      output(
        burn,
        [gas('k:a'), event('coin', 'TRANSFER_XCHAIN', '["k:a","k:c",5,"2"]'), transfer('k:a', '', '5'), event('pact', 'X_YIELD', '["2"]')],
        continuation(burn, 0),
      ),
      output(mint, [gas('kadena-xchain-gas'), transfer('', 'k:d', '{"decimal":"1.500"}')], continuation(requestKey('elsewhere'), 1)),
    ]),
    { chain: 7, height: 42 },
  )
  const entries = deriveEntries(block)
  t.same(entries.block, { chain: 7, height: 42, hash: Buffer.from(block.hash) })
  t.equal(entries.transactionCount, 3)
  t.equal(entries.malformed, 0)
  t.same(entries.coinbase, { requestKey: coinbaseKey('parent') })
  t.same(entries.transactions, [
    { position: 0, requestKey: plain, pactId: undefined },
    { position: 1, requestKey: burn, pactId: undefined },
    { position: 2, requestKey: mint, pactId: requestKey('elsewhere') },
  ])
  t.same(
    entries.events.map((e) => [e.position, e.index, `${e.module}.${e.name}`, e.requestKey]),
    [
      [COINBASE_POSITION, 0, 'coin.TRANSFER', coinbaseKey('parent')],
      [0, 0, 'coin.TRANSFER', plain],
      [0, 1, 'coin.TRANSFER', plain],
      [1, 0, 'coin.TRANSFER', burn],
      [1, 1, 'coin.TRANSFER_XCHAIN', burn],
      [1, 2, 'coin.TRANSFER', burn],
      [1, 3, 'pact.X_YIELD', burn],
      [2, 0, 'coin.TRANSFER', mint],
      [2, 1, 'coin.TRANSFER', mint],
    ],
  )
  t.same(
    entries.transfers.map((e) => [e.position, e.index, e.token, e.sender, e.receiver, e.amount, e.pactId]),
    [
      [COINBASE_POSITION, 0, 'coin', '', 'miner', '1.0354825', undefined],
      [0, 0, 'coin', 'k:a', 'miner', '0.00741', undefined],
      [0, 1, 'coin', 'k:a', 'k:b', '2.82633', undefined],
      [1, 0, 'coin', 'k:a', 'miner', '0.00741', undefined],
      [1, 2, 'coin', 'k:a', '', '5', burn],
      [2, 0, 'coin', 'kadena-xchain-gas', 'miner', '0.00741', undefined],
      [2, 1, 'coin', '', 'k:d', '1.5', requestKey('elsewhere')],
    ],
    "a leg with an empty side carries its pact's id: the burn's is its own request key, the mint's the burn's",
  )
})

t.test('outputs that are not base64url JSON objects with a request key yield nothing, and count as malformed', async (t) => {
  const good = output(requestKey('good'), [transfer('a', 'b', '1')])
  const odd: unknown[] = [
    42,
    'not base64 json !!',
    b64('[1,2]'),
    b64(output('short', [transfer('a', 'b', '1')])),
    b64(output(`${requestKey('x')}=`, [])),
    b64(output(`${requestKey('x').slice(0, 42)}B`, [])), // 43 characters that are no 32-byte hash
    b64('{"events":[]}'),
  ]
  const block = blockOf(payload([...odd, good, 'not-a-pair']))
  block.payload.transactions.push(['only one'] as unknown as [string, string], 'no pair' as unknown as [string, string])
  const entries = deriveEntries(block)
  t.equal(entries.transactionCount, odd.length + 4)
  t.same(
    entries.transactions.map((e) => e.position),
    [odd.length],
  )
  t.equal(entries.malformed, odd.length + 3)
  t.same(
    entries.events.map((e) => e.position),
    [COINBASE_POSITION, odd.length],
  )
})

t.test('a coinbase that does not read yields nothing; a payload without transactions yields the coinbase alone', async (t) => {
  for (const coinbase of [null, 7, b64('{"reqKey":""}'), b64('{"events":[]}'), 'garbage']) {
    const entries = deriveEntries(blockOf(payload([output(requestKey('a'), [])], coinbase)))
    t.equal(entries.coinbase, undefined)
    t.equal(entries.malformed, 1)
    t.equal(entries.transactions.length, 1)
  }
  const bare = blockOf({ coinbase: b64(output('cb', [])) } as never)
  t.same(deriveEntries(bare), {
    block: { chain: 3, height: 1000, hash: Buffer.from(bare.hash) },
    transactionCount: 0,
    coinbase: { requestKey: 'cb' },
    transactions: [],
    events: [],
    transfers: [],
    malformed: 0,
  })
  t.equal(deriveEntries(blockOf(undefined as never)).malformed, 1, 'no payload at all')
})

t.test('a pact id that is the transaction itself or no request key links nothing', async (t) => {
  const rk = requestKey('step')
  for (const pactId of [rk, 'short', `${requestKey('p')}=`]) {
    const [entry] = deriveEntries(blockOf(payload([output(rk, [], continuation(pactId, 1))]))).transactions
    t.equal(entry?.pactId, undefined, pactId)
  }
})

t.test('a block whose chain, height or hash no key can hold is refused', async (t) => {
  const p = payload([])
  const bad: Array<[string, Record<string, unknown>]> = [
    ['chain -1', { chain: -1 }],
    ['chain 1.5', { chain: 1.5 }],
    ['chain 2^32', { chain: 2 ** 32 }],
    ['height 2^32', { height: 2 ** 32 }],
    ['height NaN', { height: Number.NaN }],
    ['hash of 31 bytes', { hash: Buffer.alloc(31) }],
    ['hash as text', { hash: 'abc' }],
    ['no hash', { hash: null }],
  ]
  for (const [what, place] of bad) t.throws(() => deriveEntries({ ...blockOf(p), ...place } as never), InvalidBlockRefError, what)
  t.throws(() => deriveEntries({ ...blockOf(p), chain: -1 }), {
    code: 'INVALID_BLOCK_REF',
    message: /Expected a chain id from 0 to 4294967295, received -1/,
  })
  t.ok(deriveEntries({ ...blockOf(p), chain: 2 ** 32 - 1, height: 2 ** 32 - 1, hash: new Uint8Array(32) }))
})

t.test('outputs already decoded give the same entries; a list of another length is ignored', async (t) => {
  const block = blockOf(payload([output(requestKey('a'), [transfer('a', 'b', '1')]), output(requestKey('b'), [])]))
  const bytes = [block.payload.coinbase, ...block.payload.transactions.map(([, o]) => o)].map((text) => Buffer.from(text, 'base64url'))
  const expected = deriveEntries(block)
  t.same(deriveEntries({ ...block, decodedOutputs: bytes }), expected)
  t.same(deriveEntries({ ...block, decodedOutputs: bytes.map((b) => new Uint8Array(b)) }), expected, 'plain Uint8Arrays')
  t.same(deriveEntries({ ...block, decodedOutputs: bytes.slice(1) }), expected, 'one short: decoded from the payload')
  const odd = deriveEntries({ ...block, decodedOutputs: [bytes[0]!, undefined as never, Buffer.from('[]')] })
  t.same([odd.malformed, odd.transactions.length], [2, 0])
})
