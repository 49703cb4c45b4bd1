import fc from 'fast-check'
import t from 'tap'
import type { BlockEntries } from '../src/derive.js'
import { InvalidIndexKeyError } from '../src/errors.js'
import { INDEX_PREFIX, IndexKind, MAX_TEXT_BYTES } from '../src/key-codec.js'
import { decodeEntry, encodeEntries, indexOperations, requestKeyPrefix } from '../src/keys.js'
import { blockEntries, expectedDecodings } from './fixtures/entries.js'
import { blockOf, output, payload, requestKey, transfer } from './fixtures/outputs.js'

t.test('every key decodes to its entry', async (t) => {
  fc.assert(
    fc.property(blockEntries(), (entries) => {
      const decoded = encodeEntries(entries).map(({ key, value }) => decodeEntry(key, value))
      t.same(decoded, expectedDecodings(entries))
      return decoded.length === expectedDecodings(entries).length
    }),
    { numRuns: 300 },
  )
})

t.test('keys of one event name and the blocks sort newest first, then by chain and block; items follow in position order', async (t) => {
  const entries = fc.array(blockEntries(fc.nat(20), fc.nat(5000)), { minLength: 2, maxLength: 12 })
  fc.assert(
    fc.property(entries, (blocks) => {
      // Every event named coin.TRANSFER, in the order a block lists them (position, then index).
      const named = blocks.map((entries) => ({
        ...entries,
        events: entries.events
          .map((e) => ({ ...e, module: 'coin', name: 'TRANSFER' }))
          .sort((a, b) => a.position - b.position || a.index - b.index),
      }))
      const keys = named.flatMap((entries) => encodeEntries(entries).filter(({ key }) => key[1] === IndexKind.event))
      const read = keys
        .sort((a, b) => Buffer.compare(a.key, b.key))
        .flatMap(({ key, value }) => {
          const entry = decodeEntry(key, value)
          return entry.kind === 'event'
            ? entry.items.map((item) => [entry.block.height, entry.block.chain, entry.block.hashPrefix, item.position, item.index])
            : []
        })
      const expected = named
        .flatMap((entries) =>
          entries.events.map(
            (e) => [entries.block.height, entries.block.chain, entries.block.hash.subarray(0, 8), e.position, e.index] as const,
          ),
        )
        .sort((a, b) => b[0] - a[0] || a[1] - b[1] || Buffer.compare(a[2], b[2]) || a[3] - b[3] || a[4] - b[4])
      t.same(read, expected)
      const blockKeys = blocks.flatMap((entries) => encodeEntries(entries).filter(({ key }) => key[1] === IndexKind.block))
      const heights = blockKeys.sort((a, b) => Buffer.compare(a.key, b.key)).map(({ key, value }) => decodeEntry(key, value).block.height)
      return heights.every((h, i) => i === 0 || heights[i - 1]! >= h)
    }),
    { numRuns: 150 },
  )
})

t.test('the keys of a real-shaped block: one entry per event name and per account and token', async (t) => {
  const rk = requestKey('a')
  const block = blockOf(payload([output(rk, [transfer('k:a', 'k:b', '1.5'), transfer('k:a', 'k:a', '2'), transfer('k:a', '', '3')])]))
  const operations = indexOperations(block)
  const decoded = operations.map(({ key, value }) => decodeEntry(key, value))
  t.same(
    decoded.map((e) => [e.kind, e.kind === 'event' || e.kind === 'account' ? e.items.length : 1]),
    [
      ['block', 1],
      ['transaction', 1],
      ['event', 4],
      ['account', 1],
      ['account', 3],
      ['account', 1],
    ],
    "the block, its transaction, the 4 coin.TRANSFER events (the coinbase's first); the miner's, k:a's and k:b's transfers",
  )
  t.same((decoded[4] as { items: unknown[] }).items, [
    { position: 0, index: 0, sent: true, received: false },
    { position: 0, index: 1, sent: true, received: true },
    { position: 0, index: 2, sent: true, received: false },
  ])
  const [blockKey, transactionKey] = operations
  t.equal(
    blockKey!.key.toString('hex'),
    `6962${(0xffffffff - 1000).toString(16)}03${Buffer.from(block.hash).subarray(0, 8).toString('hex')}`,
  )
  t.same(blockKey!.value, Buffer.of(1), 'one transaction')
  t.equal(transactionKey!.key.length, 2 + 12 + 1 + 4 + 8, 'a request key takes 27 bytes')
  t.same(transactionKey!.value, Buffer.of(0), 'at position 0')
  t.same(operations[2]!.value, Buffer.of(0, 0, 1, 0, 1, 1, 1, 2), 'slot (position + 1) and index of each event')
  t.same(requestKeyPrefix(rk), Buffer.from(rk, 'base64url').subarray(0, 12))
})

t.test('transactions of one block whose request keys share their first 12 bytes share one entry, with every position', async (t) => {
  const twin = (key: string): string => `${key.slice(0, 16)}${key.slice(16).split('').reverse().join('')}`
  const a = requestKey('a')
  const b = requestKey('b')
  const entries: BlockEntries = {
    block: { chain: 3, height: 9, hash: Buffer.alloc(32, 1) },
    transactionCount: 4,
    coinbase: undefined,
    transactions: [
      { position: 0, requestKey: a, pactId: b },
      { position: 1, requestKey: b, pactId: undefined },
      { position: 3, requestKey: twin(a), pactId: twin(b) },
    ],
    events: [],
    transfers: [],
    malformed: 0,
  }
  t.not(twin(a), a)
  const decoded = encodeEntries(entries).map(({ key, value }) => decodeEntry(key, value))
  t.same(
    decoded.map((entry) => [entry.kind, 'positions' in entry ? entry.positions : []]),
    [
      ['block', []],
      ['transaction', [0, 3]],
      ['transaction', [1]],
      ['pact', [0, 3]],
    ],
  )
  t.equal((decoded[1] as { position: number }).position, 0, 'position is the first of them')
  const [, shared] = encodeEntries(entries)
  t.same(shared!.value, Buffer.of(0, 3))
  t.throws(() => decodeEntry(shared!.key, Buffer.of(3, 0)), { code: 'INVALID_INDEX_KEY', message: /do not ascend/ })
  t.throws(() => decodeEntry(shared!.key, Buffer.of(3, 3)), { code: 'INVALID_INDEX_KEY', message: /do not ascend/ })
})

t.test('entries whose texts no key can hold are left out', async (t) => {
  const long = 'x'.repeat(MAX_TEXT_BYTES + 1)
  const entries: BlockEntries = {
    block: { chain: 0, height: 1, hash: Buffer.alloc(32) },
    transactionCount: 0,
    coinbase: undefined,
    transactions: [],
    events: [
      { position: 0, index: 0, module: long, name: 'X', params: '[]', requestKey: requestKey('a') },
      { position: 0, index: 1, module: 'm', name: long, params: '[]', requestKey: requestKey('a') },
    ],
    transfers: [
      { position: 0, index: 2, token: long, sender: 'a', receiver: 'b', amount: '1', pactId: undefined, requestKey: requestKey('a') },
      { position: 0, index: 3, token: 'coin', sender: long, receiver: 'b', amount: '1', pactId: undefined, requestKey: requestKey('a') },
    ],
    malformed: 0,
  }
  t.same(
    encodeEntries(entries).map(({ key, value }) => decodeEntry(key, value)),
    [
      {
        kind: 'account',
        account: 'b',
        token: 'coin',
        block: { chain: 0, height: 1, hashPrefix: Buffer.alloc(8) },
        items: [{ position: 0, index: 3, sent: false, received: true }],
      },
    ],
  )
  // A text just short enough is kept, and the cache of fields does not grow without bound.
  const many = Array.from({ length: 5000 }, (_, i) => ({ ...entries.transfers[1]!, sender: `k:${i}`, token: 'coin' }))
  const written = encodeEntries({ ...entries, events: [], transfers: many })
  t.equal(written.length, 5001, "one entry for each sender's transfer, one for all that b received")
  const received = written.map(({ key, value }) => decodeEntry(key, value)).find((e) => e.kind === 'account' && e.account === 'b')
  t.equal(received?.kind === 'account' && received.items.length, 5000)
  t.equal(
    encodeEntries({ ...entries, events: [], transfers: [{ ...entries.transfers[1]!, sender: 'y'.repeat(MAX_TEXT_BYTES) }] }).length,
    2,
  )
})

t.test('a key or value this package did not write is refused', async (t) => {
  const [good] = encodeEntries({
    block: { chain: 1, height: 2, hash: Buffer.alloc(32, 1) },
    transactionCount: 0,
    coinbase: undefined,
    transactions: [],
    events: [],
    transfers: [
      { position: 0, index: 0, token: 'coin', sender: 'a', receiver: 'a', amount: '1', pactId: undefined, requestKey: requestKey('a') },
    ],
    malformed: 0,
  })
  const bad: Array<[string, Buffer, Buffer]> = [
    ['another prefix', Buffer.of(0x62, 1, 2), Buffer.alloc(0)],
    ['an unknown index', Buffer.of(INDEX_PREFIX, 0x7a), Buffer.alloc(0)],
    ['a short key', good!.key.subarray(0, good!.key.length - 3), good!.value],
    ['a key with bytes left over', Buffer.concat([good!.key, Buffer.of(0)]), good!.value],
    ['an item cut short', good!.key, Buffer.of(1, 0, 3, 1)],
    ['no side of a transfer', good!.key, Buffer.of(1, 0, 4)],
    ['an empty value', good!.key, Buffer.alloc(0)],
    [
      'a block entry with bytes left over',
      Buffer.of(INDEX_PREFIX, IndexKind.block, 0, 0, 0, 1, 0, 1, 2, 3, 4, 5, 6, 7, 8),
      Buffer.of(1, 0),
    ],
    ['a varint no encoder writes', Buffer.of(INDEX_PREFIX, IndexKind.block, 0, 0, 0, 1, 252), Buffer.of(1)],
  ]
  for (const [what, key, value] of bad) t.throws(() => decodeEntry(key, value), InvalidIndexKeyError, what)
  t.throws(() => decodeEntry(Buffer.of(1), Buffer.alloc(0)), {
    code: 'INVALID_INDEX_KEY',
    message: /^Expected an index key or value of @weft\/index, received 01/,
  })
})
