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

// The order an answer lists entries of one index in: newest first, then chain, block, position, index.
function answerOrder(a: { block: { chain: number; height: number; hash: Buffer }; position: number; index: number }, b: typeof a): number {
  return (
    b.block.height - a.block.height ||
    a.block.chain - b.block.chain ||
    Buffer.compare(a.block.hash.subarray(0, 8), b.block.hash.subarray(0, 8)) ||
    a.position - b.position ||
    a.index - b.index
  )
}

t.test("keys of one event name, one account's transfers and the blocks sort in the answers' order", async (t) => {
  const entries = fc.array(blockEntries(fc.nat(20), fc.nat(5000)), { minLength: 2, maxLength: 12 })
  fc.assert(
    fc.property(entries, (blocks) => {
      const events = blocks.flatMap((entries) =>
        entries.events.map((e) => ({ ...e, module: 'coin', name: 'TRANSFER', block: entries.block })),
      )
      const withCoin = (entries: BlockEntries): BlockEntries => ({
        ...entries,
        events: entries.events.map((e) => ({ ...e, module: 'coin', name: 'TRANSFER' })),
      })
      const keys = blocks.flatMap((entries) => encodeEntries(withCoin(entries)).filter(({ key }) => key[1] === IndexKind.event))
      const byKey = keys.sort((a, b) => Buffer.compare(a.key, b.key)).map(({ key, value }) => decodeEntry(key, value))
      const expected = [...events].sort(answerOrder)
      t.same(
        byKey.map((e) => e.kind === 'event' && [e.block.height, e.block.chain, e.block.hashPrefix, e.position, e.index]),
        expected.map((e) => [e.block.height, e.block.chain, e.block.hash.subarray(0, 8), e.position, e.index]),
      )
      const blockKeys = blocks.flatMap((entries) => encodeEntries(entries).filter(({ key }) => key[1] === IndexKind.block))
      const heights = blockKeys.sort((a, b) => Buffer.compare(a.key, b.key)).map(({ key, value }) => decodeEntry(key, value).block.height)
      return heights.every((h, i) => i === 0 || heights[i - 1]! >= h)
    }),
    { numRuns: 150 },
  )
})

t.test('the keys of a real-shaped block', async (t) => {
  const rk = requestKey('a')
  const block = blockOf(payload([output(rk, [transfer('k:a', 'k:b', '1.5'), transfer('k:a', 'k:a', '2'), transfer('k:a', '', '3')])]))
  const operations = indexOperations(block)
  t.same(
    operations.map(({ key, value }) => decodeEntry(key, value).kind),
    ['block', 'transaction', 'event', 'event', 'event', 'event', 'account', 'account', 'account', 'account', 'account'],
    'the block, its transaction, 4 events (the coinbase first); the coinbase pays the miner, a transfer has two sides, a self-transfer one, a burn one',
  )
  const [blockKey, transactionKey] = operations
  t.equal(
    blockKey!.key.toString('hex'),
    `6962${(0xffffffff - 1000).toString(16)}03${Buffer.from(block.hash).subarray(0, 8).toString('hex')}`,
  )
  t.same(blockKey!.value, Buffer.of(1), 'one transaction')
  t.equal(transactionKey!.key.length, 2 + 12 + 1 + 4 + 8, 'a request key takes 27 bytes')
  t.same(transactionKey!.value, Buffer.of(0), 'at position 0')
  t.same(requestKeyPrefix(rk), Buffer.from(rk, 'base64url').subarray(0, 12))
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
        position: 0,
        index: 3,
        sent: false,
        received: true,
      },
    ],
  )
  // A text just short enough is kept, and the cache of fields does not grow without bound.
  const many = Array.from({ length: 5000 }, (_, i) => ({ ...entries.transfers[1]!, sender: `k:${i}`, token: 'coin' }))
  t.equal(encodeEntries({ ...entries, events: [], transfers: many }).length, 10000)
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
    ['a value with bytes left over', good!.key, Buffer.of(3, 0)],
    ['no side of a transfer', good!.key, Buffer.of(4)],
    ['an empty value', good!.key, Buffer.alloc(0)],
    ['a varint no encoder writes', Buffer.of(INDEX_PREFIX, IndexKind.block, 0, 0, 0, 1, 252), Buffer.of(1)],
  ]
  for (const [what, key, value] of bad) t.throws(() => decodeEntry(key, value), InvalidIndexKeyError, what)
  t.throws(() => decodeEntry(Buffer.of(1), Buffer.alloc(0)), {
    code: 'INVALID_INDEX_KEY',
    message: /^Expected an index key or value of @weft\/index, received 01/,
  })
})
