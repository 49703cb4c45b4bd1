import { reorg } from '@weft/devnet'
import t from 'tap'
import type { RunningServer } from '../../src/index.js'
import { filledFolder, type JsonResponse, sendJson, startNode } from '../fixtures/node.js'

const dir = await filledFolder(t, 'development', 160, 0.2)
const base = (server: RunningServer): string => `${server.url}/chain/0.0/development`

type Row = Record<string, unknown>
interface Page {
  limit: number
  items: Row[]
  next: string | null
}
interface Problem {
  code: string
  status: number
  detail: string
}

// Every page from `path` on, following `next` (each answer checked against the document by `send`).
async function follow(url: string, limit: number): Promise<Row[]> {
  const all: Row[] = []
  let next: string | null = null
  for (;;) {
    const answer: JsonResponse<Page> = await sendJson<Page>(
      `${url}&limit=${limit}${next === null ? '' : `&next=${encodeURIComponent(next)}`}`,
    )
    t.equal(answer.status, 200)
    t.ok(answer.json.items.length <= limit)
    all.push(...answer.json.items)
    if (answer.json.next === null) return all
    t.match(answer.json.next, /^inclusive:[A-Za-z0-9_-]+$/)
    next = answer.json.next
  }
}

const place = (row: Row): string => `${row.blockHash}/${row.position}/${row.index}`

t.test('events and transfers: pages with inclusive: cursors, each copy marked, as the index holds them', async (t) => {
  const server = await startNode(t, { data: dir, network: 'development' })
  const events = await follow(`${base(server)}/event?name=coin.TRANSFER`, 1000)
  const stored = (await server.store.index.events({ module: 'coin', name: 'TRANSFER', limit: 1000 })).items
  t.ok(stored.length > 50, `${stored.length} coin.TRANSFER events stored`)
  t.same(
    events.map((row) => [row.blockHash, row.position, row.index, row.params, row.canonical, row.depth]),
    stored.map((event) => [
      event.block.hash,
      event.position,
      event.index,
      JSON.parse(event.params),
      event.block.canonical,
      event.block.depth,
    ]),
    'every copy, orphans included, with its standing and depth',
  )
  t.ok(
    events.some((row) => row.canonical === false),
    'orphaned copies among them',
  )
  t.same(Object.keys(events[0]!), [
    'requestKey',
    'chain',
    'height',
    'blockHash',
    'position',
    'index',
    'module',
    'name',
    'params',
    'moduleHash',
    'canonical',
    'depth',
  ])
  t.same((await follow(`${base(server)}/event?name=coin.TRANSFER`, 7)).map(place), events.map(place), 'pages of 7 make the whole')
  const canonical = await follow(`${base(server)}/event?name=coin.TRANSFER&canonical=true&chain=3`, 1000)
  t.same(
    canonical.map(place),
    events.filter((row) => row.canonical === true && row.chain === 3).map(place),
    'canonical=true&chain=3: the winning branch of chain 3',
  )
  const byModule = await follow(`${base(server)}/event?module=coin&maxheight=20`, 1000)
  t.ok(
    new Set(byModule.map((row) => row.name)).size > 1 && byModule.every((row) => (row.height as number) <= 20),
    'module=coin&maxheight=20',
  )

  // An account's transfers: the one that sent most.
  const senders = new Map<string, number>()
  for (const row of events) {
    const sender = (row.params as string[])[0]!
    if (sender !== '') senders.set(sender, (senders.get(sender) ?? 0) + 1)
  }
  const account = [...senders].sort((a, b) => b[1] - a[1])[0]![0]
  const transfers = await follow(`${base(server)}/transfer?account=${encodeURIComponent(account)}`, 5)
  const mine = (await server.store.index.transfers({ account, limit: 1000 })).items
  t.ok(mine.length > 3, `${mine.length} transfers of ${account}`)
  t.same(
    transfers.map((row) => [place(row), row.sender, row.receiver, row.amount, row.token, row.canonical]),
    mine.map((item) => [
      `${item.block.hash}/${item.position}/${item.index}`,
      item.sender,
      item.receiver,
      item.amount,
      item.token,
      item.block.canonical,
    ]),
    'every transfer, amounts as exact decimal text',
  )
  t.same((await follow(`${base(server)}/transfer?account=${encodeURIComponent(account)}&token=none.such`, 5)).length, 0)
})

t.test('refusals: problem+json through the error table', async (t) => {
  const server = await startNode(t, { data: dir, network: 'development' })
  const page = await sendJson<Page>(`${base(server)}/event?name=coin.TRANSFER&limit=2`)
  const cases: Array<[string, number, string]> = [
    ['event', 400, 'INVALID_QUERY'],
    ['event?name=coin.TRANSFER&module=coin', 400, 'INVALID_QUERY'],
    ['event?name=TRANSFER', 400, 'INVALID_QUERY'],
    ['event?name=coin.TRANSFER&limit=0', 400, 'INVALID_QUERY'],
    ['event?name=coin.TRANSFER&chain=99', 400, 'INVALID_QUERY'],
    ['event?name=coin.TRANSFER&canonical=yes', 400, 'INVALID_QUERY'],
    ['event?name=coin.TRANSFER&next=exclusive:abc', 404, 'INVALID_CURSOR'],
    ['event?name=coin.TRANSFER&next=inclusive:AAAA', 400, 'INVALID_INDEX_QUERY'],
    [`event?module=free&next=${encodeURIComponent(page.json.next!)}`, 400, 'CURSOR_OUT_OF_RANGE'],
    ['transfer', 400, 'INVALID_QUERY'],
    ['transaction/abc', 400, 'INVALID_HASH'],
    [`transaction/${'A'.repeat(43)}`, 404, 'TX_NOT_FOUND'],
  ]
  for (const [path, status, code] of cases) {
    const answer = await sendJson<Problem>(`${base(server)}/${path}`)
    t.equal(answer.status, status, path)
    t.equal(answer.json.code, code, path)
    t.equal(answer.headers['content-type'], 'application/problem+json;charset=utf-8', path)
  }
})

t.test('--no-index: the resources answer INDEX_DISABLED (501), and the search box says why it finds no transaction', async (t) => {
  const folder = await filledFolder(t, 'development', 40, 0)
  const server = await startNode(t, { data: folder, network: 'development', index: false })
  for (const path of ['event?name=coin.TRANSFER', 'event?module=coin', 'transfer?account=k:abc', `transaction/${'A'.repeat(43)}`]) {
    const answer = await sendJson<Problem>(`${base(server)}/${path}`)
    t.equal(answer.status, 501, path)
    t.equal(answer.json.code, 'INDEX_DISABLED', path)
    t.match(answer.json.detail, /--no-index/, path)
    t.equal(answer.headers['content-type'], 'application/problem+json;charset=utf-8', path)
  }
  const search = await sendJson<{ index: string; transactions: unknown[] }>(`${server.url}/search?q=${'A'.repeat(43)}`)
  t.equal(search.status, 200)
  t.equal(search.json.index, 'disabled')
  t.same(search.json.transactions, [])
})

t.test('the chainweb profile has chainweb-data routes instead', async (t) => {
  const chainweb = await startNode(t, { data: dir, network: 'development', profile: 'chainweb' })
  t.equal((await sendJson(`${chainweb.url}/chainweb/0.0/development/event?name=coin.TRANSFER`)).status, 404)
})

t.test('a reorg moves a transaction from canonical to orphaned, as the route answers it', async (t) => {
  const folder = await filledFolder(t, 'development', 40, 0)
  const server = await startNode(t, { data: folder, network: 'development' })
  // A chain whose head holds a transaction.
  let found: { chain: number; requestKey: string } | undefined
  for (const [chain, head] of server.store.cut()) {
    const copies = await server.store.index.blockTransactions(head.hash)
    if (copies !== undefined && copies.length > 0) {
      found = { chain, requestKey: copies[0]!.requestKey }
      break
    }
  }
  if (found === undefined) throw new Error('expected a head with a transaction in the devnet')
  const url = `${base(server)}/transaction/${found.requestKey}`
  interface Copies {
    requestKey: string
    complete: boolean
    copies: Row[]
  }
  const before = (await sendJson<Copies>(url)).json
  t.same(
    before.copies.map((copy) => [copy.chain, copy.canonical, copy.depth]),
    [[found.chain, true, 0]],
    'one copy, on the winning branch, at the head',
  )
  t.equal(before.complete, true)
  t.equal((before.copies[0]!.result as { reqKey: string }).reqKey, found.requestKey, 'its command result')
  await reorg(server.store, { chains: [found.chain], depth: 2, seed: 'index-routes' })
  const after = (await sendJson<Copies>(url)).json
  t.same(
    after.copies.map((copy) => [copy.chain, copy.blockHash, copy.canonical]),
    [[found.chain, before.copies[0]!.blockHash, false]],
    'the same copy, now orphaned',
  )
  const events = await follow(`${base(server)}/event?module=coin&chain=${found.chain}`, 1000)
  const ofKey = events.filter((row) => row.requestKey === found.requestKey)
  t.ok(ofKey.length > 0 && ofKey.every((row) => row.canonical === false), 'its events are marked orphaned')
  const winning = await follow(`${base(server)}/event?module=coin&chain=${found.chain}&canonical=true`, 1000)
  t.notOk(
    winning.some((row) => row.requestKey === found.requestKey),
    'and left out of the winning branch',
  )
})
