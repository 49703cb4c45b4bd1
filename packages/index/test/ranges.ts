import { ClassicLevel } from 'classic-level'
import t, { type Test } from 'tap'
import { COINBASE_POSITION, deriveEntries } from '../src/derive.js'
import { InvalidIndexQueryError } from '../src/errors.js'
import { type DecodedEntry, decodeEntry, encodeEntries } from '../src/keys.js'
import {
  accountRange,
  accountTokensRange,
  allEventsRange,
  blockRange,
  eventRange,
  type KeyRange,
  moduleEventsRange,
  pactRange,
  transactionRange,
} from '../src/ranges.js'
import { devnetBlocks } from './fixtures/outputs.js'

type Db = ClassicLevel<Buffer, Buffer>

// The devnet blocks, their entries written to a real classic-level store as a node writes them.
async function filled(t: Test): Promise<{ db: Db; entries: ReturnType<typeof deriveEntries>[] }> {
  const db = new ClassicLevel<Buffer, Buffer>(t.testdir(), { keyEncoding: 'buffer', valueEncoding: 'buffer' })
  t.teardown(() => db.close())
  const entries = devnetBlocks().map(deriveEntries)
  for (const block of entries) await db.batch(encodeEntries(block).map(({ key, value }) => ({ type: 'put' as const, key, value })))
  return { db, entries }
}

async function read(db: Db, range: KeyRange, limit = -1): Promise<Array<{ key: Buffer; entry: DecodedEntry }>> {
  const out = []
  for await (const [key, value] of db.iterator({ ...range, limit })) out.push({ key, entry: decodeEntry(key, value) })
  return out
}

const place = (e: DecodedEntry) => [
  e.block.height,
  e.block.chain,
  e.block.hashPrefix.toString('hex'),
  'position' in e ? e.position : -2,
  'index' in e ? e.index : -1,
]

t.test('every request key is found at its block and position, on its chain only', async (t) => {
  const { db, entries } = await filled(t)
  let found = 0
  for (const { block, transactions } of entries) {
    for (const { requestKey, position } of transactions) {
      const [hit, ...more] = await read(db, transactionRange(requestKey))
      t.same(more, [])
      t.same(place(hit!.entry).slice(0, 4), [block.height, block.chain, block.hash.subarray(0, 8).toString('hex'), position])
      t.equal((await read(db, transactionRange(Buffer.from(requestKey, 'base64url'), block.chain))).length, 1)
      t.equal((await read(db, transactionRange(requestKey, block.chain + 1))).length, 0)
      found++
    }
  }
  t.ok(found > 100, `${found} transactions`)
})

t.test('events of one name come newest first, and pages by cursor give each once whatever arrives in between', async (t) => {
  const { db, entries } = await filled(t)
  const all = await read(db, eventRange({ module: 'coin', name: 'TRANSFER' }))
  const expected = entries.flatMap((e) =>
    e.events.filter((x) => x.module === 'coin' && x.name === 'TRANSFER').map((x) => ({ ...x, block: e.block })),
  )
  t.equal(all.length, expected.length)
  const order = all.map(({ entry }) => place(entry))
  const sorted = [...order].sort(
    (a, b) =>
      (b[0] as number) - (a[0] as number) ||
      (a[1] as number) - (b[1] as number) ||
      String(a[2]).localeCompare(String(b[2])) ||
      (a[3] as number) - (b[3] as number) ||
      (a[4] as number) - (b[4] as number),
  )
  t.same(order, sorted, 'height down, then chain, block, position (the coinbase first), index')
  t.ok(all.some(({ entry }) => 'position' in entry && entry.position === COINBASE_POSITION))

  // Pages of 7 by `after`, while a newer block arrives between two pages: no row skipped or repeated.
  const pages: string[] = []
  let after: Buffer | undefined
  for (;;) {
    const page = await read(db, eventRange({ module: 'coin', name: 'TRANSFER', ...(after === undefined ? {} : { after }) }), 7)
    if (page.length === 0) break
    pages.push(...page.map(({ key }) => key.toString('hex')))
    after = page[page.length - 1]!.key
    if (pages.length === 7) {
      const newer = { ...entries[0]!, block: { ...entries[0]!.block, height: 1_000_000 } }
      await db.batch(encodeEntries(newer).map(({ key, value }) => ({ type: 'put' as const, key, value })))
    }
  }
  t.same(
    pages,
    all.map(({ key }) => key.toString('hex')),
  )
  const from = await read(db, eventRange({ module: 'coin', name: 'TRANSFER', from: all[3]!.key }), 2)
  t.same(
    from.map(({ key }) => key),
    [all[3]!.key, all[4]!.key],
    'from: the cursor row first',
  )
})

t.test('height bounds keep the heights between them, both included', async (t) => {
  const { db } = await filled(t)
  const heights = (await read(db, eventRange({ module: 'coin', name: 'TRANSFER', minheight: 2, maxheight: 3 }))).map(
    ({ entry }) => entry.block.height,
  )
  t.ok(heights.length > 0)
  t.same([...new Set(heights)], [3, 2])
  t.same(await read(db, eventRange({ module: 'coin', name: 'TRANSFER', minheight: 3, maxheight: 2 })), [], 'an empty span')
  t.equal(
    (await read(db, eventRange({ module: 'coin', name: 'TRANSFER', maxheight: 2 ** 40 }))).length,
    (await read(db, eventRange({ module: 'coin', name: 'TRANSFER' }))).length,
  )
})

t.test("an account's transfers of one token, both sides, newest first", async (t) => {
  const { db, entries } = await filled(t)
  const transfers = entries.flatMap((e) => e.transfers)
  const account = transfers.find((x) => x.sender.startsWith('k:') && x.token === 'coin')!.sender
  const mine = transfers.filter((x) => x.token === 'coin' && (x.sender === account || x.receiver === account))
  const rows = await read(db, accountRange({ account, token: 'coin' }))
  t.equal(rows.length, mine.length)
  t.ok(
    rows.some(({ entry }) => entry.kind === 'account' && entry.sent) &&
      rows.some(({ entry }) => entry.kind === 'account' && entry.received),
  )
  const heights = rows.map(({ entry }) => entry.block.height)
  t.same(
    heights,
    [...heights].sort((a, b) => b - a),
  )
  const tokens = new Set((await read(db, accountTokensRange(account))).map(({ entry }) => entry.kind === 'account' && entry.token))
  t.ok(tokens.has('coin'))
})

t.test("a module's names, found by skipping from one name's range to the next", async (t) => {
  const { db } = await filled(t)
  const names: string[] = []
  let range: KeyRange = moduleEventsRange('coin')
  for (;;) {
    const [first] = await read(db, range, 1)
    if (first === undefined || first.entry.kind !== 'event') break
    names.push(first.entry.name)
    range = { gte: eventRange({ module: 'coin', name: first.entry.name }).lt, lt: range.lt }
  }
  t.same(names, ['TRANSFER', 'TRANSFER_XCHAIN', 'TRANSFER_XCHAIN_RECD'])
  const modules = new Set((await read(db, allEventsRange())).map(({ entry }) => entry.kind === 'event' && entry.module))
  t.same([...modules].sort(), ['coin', 'free.registry', 'free.weft-token', 'pact'])
})

t.test("a cross-chain transfer's second step is found by its pact id, which is the first step's request key", async (t) => {
  const { db, entries } = await filled(t)
  const legs = entries.flatMap((e) =>
    e.transfers.filter((x) => x.receiver === '' && x.pactId !== undefined).map((x) => ({ ...x, block: e.block })),
  )
  let linked = 0
  for (const burn of legs) {
    t.equal(burn.pactId, burn.requestKey)
    for (const { entry } of await read(db, pactRange(burn.pactId!))) {
      const mint = entries.find((e) => e.block.height === entry.block.height && e.block.chain === entry.block.chain)!
      t.equal(
        mint.transfers.find((x) => x.sender === '' && x.position === ('position' in entry ? entry.position : -2))?.amount,
        burn.amount,
      )
      t.equal((await read(db, pactRange(burn.pactId!, entry.block.chain))).length, 1)
      linked++
    }
  }
  t.ok(linked >= 3, `${linked} of ${legs.length} cross-chain transfers completed`)
})

t.test('blocks with transactions, newest first, with their counts', async (t) => {
  const { db, entries } = await filled(t)
  const rows = await read(db, blockRange())
  t.equal(rows.length, entries.filter((e) => e.transactionCount > 0).length)
  t.equal(
    rows.reduce((sum, { entry }) => sum + (entry.kind === 'block' ? entry.transactionCount : 0), 0),
    entries.reduce((sum, e) => sum + e.transactionCount, 0),
  )
  const page = await read(db, blockRange({ after: rows[0]!.key }), 1)
  t.same(page[0]!.key, rows[1]!.key)
})

t.test('queries no entry can match, and cursors outside their range, are refused', async (t) => {
  const cases: Array<[string, () => unknown, string]> = [
    ['a request key of 10 characters', () => transactionRange('abcdefghij'), 'INVALID_INDEX_QUERY'],
    ['a pact id of 31 bytes', () => pactRange(new Uint8Array(31)), 'INVALID_INDEX_QUERY'],
    ['chain -1', () => transactionRange(new Uint8Array(32), -1), 'INVALID_INDEX_QUERY'],
    ['a name too long', () => eventRange({ module: 'coin', name: 'x'.repeat(2000) }), 'INVALID_INDEX_QUERY'],
    ['an account not a text', () => accountRange({ account: 5 as never, token: 'coin' }), 'INVALID_INDEX_QUERY'],
    ['a negative height', () => blockRange({ minheight: -1 }), 'INVALID_INDEX_QUERY'],
    ['a fractional height', () => blockRange({ maxheight: 1.5 }), 'INVALID_INDEX_QUERY'],
    ['two cursors', () => blockRange({ after: Buffer.of(0x69, 0x62, 1), from: Buffer.of(0x69, 0x62, 1) }), 'INVALID_INDEX_QUERY'],
    ["another index's cursor", () => blockRange({ after: Buffer.of(0x69, 0x65, 1) }), 'CURSOR_OUT_OF_RANGE'],
    ['a cursor above maxheight', () => blockRange({ maxheight: 5, after: Buffer.of(0x69, 0x62, 0, 0, 0, 0) }), 'CURSOR_OUT_OF_RANGE'],
    [
      'a cursor below minheight',
      () => blockRange({ minheight: 5, from: Buffer.of(0x69, 0x62, 0xff, 0xff, 0xff, 0xff) }),
      'CURSOR_OUT_OF_RANGE',
    ],
  ]
  for (const [what, query, code] of cases) t.throws(query, { code }, what)
  t.throws(() => transactionRange('?'), InvalidIndexQueryError)
  t.throws(() => eventRange({ module: 'coin', name: null as never }), {
    message: 'Expected name to be a text of at most 1024 UTF-8 bytes, received null',
  })
  t.throws(() => accountRange({ account: 'y'.repeat(1025), token: 'coin' }), { message: /received a text of 1025 characters$/ })
  t.throws(() => blockRange({ maxheight: 'x' as never }), { message: 'Expected maxheight to be an integer from 0, received "x"' })
  t.throws(() => blockRange({ maxheight: {} as never }), { message: 'Expected maxheight to be an integer from 0, received object' })
  t.throws(() => transactionRange({} as never), {
    message: 'Expected the request key as 43 base64url characters or 32 bytes, received object',
  })
})
