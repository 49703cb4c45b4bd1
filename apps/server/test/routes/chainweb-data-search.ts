import type { TransactionCopy } from '@weft/store'
import t from 'tap'
import { searchTransactions } from '../../src/chainweb-data/tx-search.js'
import type { RunningServer } from '../../src/index.js'
import { filledFolder, type RawResponse, send, startNode } from '../fixtures/node.js'

const dir = await filledFolder(t, 'development', 120, 0.1)

type Row = Record<string, unknown>
// A time bound that never ends a page here (the scan bound is the one tested); 0 ends each at once.
const HOUR = 3_600_000
const rows = (response: RawResponse): Row[] => JSON.parse(response.body.toString('utf8')) as Row[]

interface Command {
  readonly payload: { readonly exec?: { readonly code: string }; readonly cont?: { readonly pactId: string } }
}
const commandOf = (copy: TransactionCopy): Command => JSON.parse((JSON.parse(copy.command) as { cmd: string }).cmd) as Command

// Every stored transaction and every block holding some, newest first, read block by block from the index (parsed in full here, not as the route reads them).
async function stored(server: RunningServer): Promise<{ canonical: TransactionCopy[]; orphanBlocks: number }> {
  const canonical: TransactionCopy[] = []
  let orphanBlocks = 0
  let next: string | undefined
  do {
    const page = await server.store.index.blocks({ limit: 1000, ...(next === undefined ? {} : { next }) })
    for (const { block } of page.items) {
      if (block.canonical) canonical.push(...((await server.store.index.blockTransactions(block.hash)) ?? []))
      else orphanBlocks += 1
    }
    next = page.next
  } while (next !== undefined)
  return { canonical, orphanBlocks }
}

// Every page of a search, following Chainweb-Next (`first` only on the first page: `offset` goes into the token).
async function follow(server: RunningServer, query: string, limit: number, first = ''): Promise<Row[]> {
  const all: Row[] = []
  let next: string | undefined
  for (;;) {
    const answer = await send(`${server.url}/txs/search?${query}&limit=${limit}${next === undefined ? first : `&next=${next}`}`)
    t.equal(answer.status, 200)
    all.push(...rows(answer))
    next = answer.headers['chainweb-next'] as string | undefined
    t.match(answer.headers['access-control-expose-headers'], /chainweb-next/, 'scripts in a browser can read the token')
    if (next === undefined) return all
  }
}

t.test('/txs/search: TxSummary rows of the winning branch whose code holds the text, newest first, paged', async (t) => {
  const server = await startNode(t, { data: dir, network: 'development', profile: 'chainweb' })
  const { canonical } = await stored(server)
  const expected = canonical.filter((copy) => (commandOf(copy).payload.exec?.code ?? '').includes('transfer-crosschain'))
  t.ok(expected.length > 3 && expected.length < canonical.length, `${expected.length} of ${canonical.length} match`)
  const whole = await follow(server, 'search=transfer-crosschain', 250)
  t.same(
    whole.map((row) => row.requestKey),
    expected.map((copy) => copy.requestKey),
  )
  t.same(Object.keys(whole[0]!), [
    'chain',
    'height',
    'blockHash',
    'creationTime',
    'requestKey',
    'sender',
    'code',
    'continuation',
    'result',
    'initialCode',
    'previousSteps',
  ])
  t.ok(whole.every((row) => (row.code as string).includes('transfer-crosschain')))
  t.same(await follow(server, 'search=transfer-crosschain', 2), whole, 'pages of 2 by token make the whole')
  t.same(await follow(server, 'search=transfer-crosschain', 2, '&offset=1'), whole.slice(1), 'offset skips')
  const [low, high] = [whole.at(-1)!.height as number, whole[0]!.height as number]
  const middle = Math.floor((low + high) / 2)
  t.same(
    await follow(server, `search=transfer-crosschain&minheight=${middle}&maxheight=${high - 1}`, 250),
    whole.filter((row) => (row.height as number) >= middle && (row.height as number) <= high - 1),
    'minheight and maxheight bound it',
  )
  t.equal((await follow(server, 'search=', 250)).length, canonical.length, 'an empty text matches every transaction, continuations too')

  const step = canonical.find((copy) => commandOf(copy).payload.cont !== undefined)!
  const byPact = rows(await send(`${server.url}/txs/search?pactid=${commandOf(step).payload.cont!.pactId}`))
  t.ok(
    byPact.some((row) => row.requestKey === step.requestKey),
    'pactid= answers the later steps of the pact',
  )
})

t.test('the work of one search is bounded: a page examines scanLimit transactions at most, then gives a token', async (t) => {
  const server = await startNode(t, { data: dir, network: 'development', profile: 'chainweb' })
  const { canonical, orphanBlocks } = await stored(server)
  const examined = canonical.length + orphanBlocks
  const paging = { limit: 10, offset: 0 }
  let page = await searchTransactions(server.store.index, 'no code holds this', paging, 25, HOUR)
  let pages = 1
  while (page.next !== undefined) {
    t.same(page.items, [])
    page = await searchTransactions(server.store.index, 'no code holds this', { ...paging, next: page.next }, 25, HOUR)
    pages += 1
  }
  t.ok(pages >= Math.ceil(examined / 25) && pages <= Math.ceil(examined / 25) + 1, `${pages} pages for ${examined} examined`)
  const found: string[] = []
  let next: string | undefined
  do {
    const small = await searchTransactions(server.store.index, 'coin.', { ...paging, ...(next === undefined ? {} : { next }) }, 7, HOUR)
    found.push(...small.items.map((copy) => copy.requestKey))
    next = small.next
  } while (next !== undefined)
  t.same(
    found,
    canonical.filter((copy) => (commandOf(copy).payload.exec?.code ?? '').includes('coin.')).map((copy) => copy.requestKey),
    'pages cut short by the bound skip and repeat nothing',
  )
  // Out of time at once: one transaction examined a page, and the next page goes on from the one after it.
  const first = await searchTransactions(server.store.index, '', { limit: 10, offset: 0 }, 5000, 0)
  t.same(
    first.items.map((copy) => copy.requestKey),
    [canonical[0]!.requestKey],
  )
  const second = await searchTransactions(server.store.index, '', { limit: 10, offset: 0, next: first.next! }, 5000, 0)
  t.same(
    second.items.map((copy) => copy.requestKey),
    [canonical[1]!.requestKey],
  )
})

t.test('/txs/search errors, /stats and /coins', async (t) => {
  const server = await startNode(t, { data: dir, network: 'development', profile: 'chainweb' })
  const none = await send(`${server.url}/txs/search`)
  t.equal(none.status, 404)
  t.equal(none.body.toString('utf8').trim(), 'You must specify a search string')
  const both = await send(`${server.url}/txs/search?search=x&pactid=y`)
  t.equal(both.status, 400)
  t.match(both.body.toString('utf8'), /only specify a pactid or a search string/)
  for (const token of ['bm90IGpzb24', 'WzEsMiwzXQ', Buffer.from('[null,"short",0,0]').toString('base64url')]) {
    const bad = await send(`${server.url}/txs/search?search=x&next=${token}`)
    t.equal(bad.status, 400, token)
    t.match(bad.body.toString('utf8'), /^Invalid next token/)
  }
  t.equal((await send(`${server.url}/txs/search?search=x&next=abc&offset=1`)).status, 400)
  t.same(rows(await send(`${server.url}/txs/search?search=&limit=0`)), [])

  const stats = await send(`${server.url}/stats`)
  t.equal(stats.status, 200)
  t.same(JSON.parse(stats.body.toString('utf8')), { transactionCount: null, coinsInCirculation: null })
  const coins = await send(`${server.url}/coins`)
  t.equal(coins.status, 501)
  t.match(coins.body.toString('utf8'), /needs Pact state/)
})
