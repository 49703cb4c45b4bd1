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
  decodeCursor,
  encodeCursor,
  eventRange,
  type IndexCursor,
  type KeyRange,
  moduleEventsRange,
  pactRange,
  transactionRange,
} from '../src/ranges.js'
import { devnetBlocks } from './fixtures/outputs.js'

type Db = ClassicLevel<Buffer, Buffer>
type Row = [height: number, chain: number, block: string, position: number, index: number]

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

// Each item of an entry as a row of an answer: the block's place, the item's position and index (-1: none).
function rowsOf(entry: DecodedEntry): Row[] {
  const { height, chain, hashPrefix } = entry.block
  if (entry.kind === 'event' || entry.kind === 'account')
    return entry.items.map((item) => [height, chain, hashPrefix.toString('hex'), item.position, item.index])
  return [[height, chain, hashPrefix.toString('hex'), entry.kind === 'block' ? -2 : entry.position, -1]]
}
const rows = (entries: ReadonlyArray<{ entry: DecodedEntry }>): Row[] => entries.flatMap(({ entry }) => rowsOf(entry))

// A page of `size` rows after `cursor`, as a reader makes it: the entries from the cursor's key on,
// less the items the page before took of the first, and the cursor where it stopped.
async function page(db: Db, range: (cursor?: IndexCursor) => KeyRange, size: number, cursor?: IndexCursor) {
  const taken: Row[] = []
  for (const { key, entry } of await read(db, range(cursor))) {
    const all = rowsOf(entry)
    const skip = cursor !== undefined && key.equals(Buffer.from(cursor.key)) ? cursor.taken : 0
    const room = size - taken.length
    taken.push(...all.slice(skip, skip + room))
    if (all.length - skip >= room) return { rows: taken, next: { key, taken: skip + room } }
  }
  return { rows: taken, next: undefined }
}

t.test('every request key is found at its block and position, on its chain only', async (t) => {
  const { db, entries } = await filled(t)
  let found = 0
  for (const { block, transactions } of entries) {
    for (const { requestKey, position } of transactions) {
      const [hit, ...more] = await read(db, transactionRange(requestKey))
      t.same(more, [])
      t.same(rowsOf(hit!.entry), [[block.height, block.chain, block.hash.subarray(0, 8).toString('hex'), position, -1]])
      t.equal((await read(db, transactionRange(Buffer.from(requestKey, 'base64url'), block.chain))).length, 1)
      t.equal((await read(db, transactionRange(requestKey, block.chain + 1))).length, 0)
      found++
    }
  }
  t.ok(found > 100, `${found} transactions`)
})

t.test('events of one name come newest first, and pages by cursor give each once whatever arrives in between', async (t) => {
  const { db, entries } = await filled(t)
  const all = rows(await read(db, eventRange({ module: 'coin', name: 'TRANSFER' })))
  t.equal(all.length, entries.flatMap((e) => e.events.filter((x) => x.module === 'coin' && x.name === 'TRANSFER')).length)
  const sorted = [...all].sort((a, b) => b[0] - a[0] || a[1] - b[1] || a[2].localeCompare(b[2]) || a[3] - b[3] || a[4] - b[4])
  t.same(all, sorted, 'height down, then chain, block, position (the coinbase first), index')
  t.ok(all.some((row) => row[3] === COINBASE_POSITION))

  // Pages of 7, most ending inside a block's entry, while a newer block arrives after the first: no row skipped or repeated.
  const range = (cursor?: IndexCursor) => eventRange({ module: 'coin', name: 'TRANSFER', ...(cursor === undefined ? {} : { cursor }) })
  const paged: Row[] = []
  let cursor: IndexCursor | undefined
  let inside = 0
  for (let pages = 0; ; pages++) {
    const next = await page(db, range, 7, cursor === undefined ? undefined : decodeCursor(encodeCursor(cursor)))
    paged.push(...next.rows)
    if (next.next === undefined) break
    cursor = next.next
    if (rowsOf(decodeEntry(cursor.key, (await db.get(Buffer.from(cursor.key)))!)).length > cursor.taken) inside++
    if (pages === 0) {
      const newer = { ...entries[0]!, block: { ...entries[0]!.block, height: 1_000_000 } }
      await db.batch(encodeEntries(newer).map(({ key, value }) => ({ type: 'put' as const, key, value })))
    }
  }
  t.same(paged, all)
  t.ok(inside > 3, `${inside} pages ended inside a block's entry`)
})

t.test('height bounds keep the heights between them, both included', async (t) => {
  const { db } = await filled(t)
  const heights = rows(await read(db, eventRange({ module: 'coin', name: 'TRANSFER', minheight: 2, maxheight: 3 }))).map((row) => row[0])
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
  const found = await read(db, accountRange({ account, token: 'coin' }))
  const items = found.flatMap(({ entry }) => (entry.kind === 'account' ? entry.items : []))
  t.equal(items.length, mine.length)
  t.ok(items.some((item) => item.sent) && items.some((item) => item.received))
  const heights = found.map(({ entry }) => entry.block.height)
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
      t.equal(mint.transfers.find((x) => x.sender === '' && x.position === rowsOf(entry)[0]![3])?.amount, burn.amount)
      t.equal((await read(db, pactRange(burn.pactId!, entry.block.chain))).length, 1)
      linked++
    }
  }
  t.ok(linked >= 3, `${linked} of ${legs.length} cross-chain transfers completed`)
})

t.test('blocks with transactions, newest first, with their counts', async (t) => {
  const { db, entries } = await filled(t)
  const blocks = await read(db, blockRange())
  t.equal(blocks.length, entries.filter((e) => e.transactionCount > 0).length)
  t.equal(
    blocks.reduce((sum, { entry }) => sum + (entry.kind === 'block' ? entry.transactionCount : 0), 0),
    entries.reduce((sum, e) => sum + e.transactionCount, 0),
  )
  const next = await page(db, (cursor) => blockRange(cursor === undefined ? {} : { cursor }), 1, { key: blocks[0]!.key, taken: 1 })
  t.same(next.rows, rows([blocks[1]!]))
})

t.test('queries no entry can match, and cursors outside their range, are refused', async (t) => {
  const cursor = (key: number[], taken = 0) => ({ cursor: { key: Buffer.of(...key), taken } })
  const cases: Array<[string, () => unknown, string]> = [
    ['a request key of 10 characters', () => transactionRange('abcdefghij'), 'INVALID_INDEX_QUERY'],
    ['a pact id of 31 bytes', () => pactRange(new Uint8Array(31)), 'INVALID_INDEX_QUERY'],
    ['chain -1', () => transactionRange(new Uint8Array(32), -1), 'INVALID_INDEX_QUERY'],
    ['a name too long', () => eventRange({ module: 'coin', name: 'x'.repeat(2000) }), 'INVALID_INDEX_QUERY'],
    ['an account not a text', () => accountRange({ account: 5 as never, token: 'coin' }), 'INVALID_INDEX_QUERY'],
    ['a negative height', () => blockRange({ minheight: -1 }), 'INVALID_INDEX_QUERY'],
    ['a fractional height', () => blockRange({ maxheight: 1.5 }), 'INVALID_INDEX_QUERY'],
    ['a negative count', () => blockRange(cursor([0x69, 0x62, 1], -1)), 'INVALID_INDEX_QUERY'],
    ['a cursor without a key', () => blockRange({ cursor: { key: 'x', taken: 0 } as never }), 'INVALID_INDEX_QUERY'],
    ["another index's cursor", () => blockRange(cursor([0x69, 0x65, 1])), 'CURSOR_OUT_OF_RANGE'],
    ['a cursor above maxheight', () => blockRange({ maxheight: 5, ...cursor([0x69, 0x62, 0, 0, 0, 0]) }), 'CURSOR_OUT_OF_RANGE'],
    [
      'a cursor below minheight',
      () => blockRange({ minheight: 5, ...cursor([0x69, 0x62, 0xff, 0xff, 0xff, 0xff]) }),
      'CURSOR_OUT_OF_RANGE',
    ],
    ['a count too large to encode', () => encodeCursor({ key: Buffer.of(0x69, 0x62), taken: 2 ** 32 }), 'INVALID_INDEX_QUERY'],
  ]
  for (const [what, query, code] of cases) t.throws(query, { code }, what)
  for (const bytes of [[], [252], [0], [0, 0x69], [0, 0x62, 1]])
    t.throws(() => decodeCursor(Buffer.of(...bytes)), { code: 'INVALID_INDEX_QUERY' }, `${bytes}`)
  t.same(decodeCursor(encodeCursor({ key: Buffer.of(0x69, 0x62, 7), taken: 300 })), { key: Buffer.of(0x69, 0x62, 7), taken: 300 })
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
