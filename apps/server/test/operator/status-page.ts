import { existsSync } from 'node:fs'
import type { TransferCopy } from '@weft/store'
import { until } from '@weft/test-kit'
import { type Browser, type Page as BrowserPage, chromium } from 'playwright-core'
import t, { type Test } from 'tap'
import type { RunningServer } from '../../src/index.js'
import { send, startNode } from '../fixtures/node.js'

/** Debian's Chromium, which `.ci/run` installs when it is missing. */
const CHROMIUM = '/usr/bin/chromium'
const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

// What the test reads of the page's globals (this package's TypeScript has no DOM library).
interface Page {
  document: { getElementById(id: string): { textContent: string | null; dataset: Record<string, string | undefined> } }
}

t.test('the status page is plain HTML with the figures, the heads and the links', async (t) => {
  const server = await startNode(t, { data: t.testdir(), network: 'development', profile: 'chainweb' })
  const page = await send(`${server.url}/`)
  t.equal(page.status, 200)
  t.equal(page.headers['content-type'], 'text/html;charset=utf-8')
  t.match(
    page.headers['content-security-policy'],
    /^default-src 'none'; style-src 'sha256-[^']+'; script-src 'sha256-[^']+'; connect-src 'self'/,
  )
  const html = page.body.toString()
  t.notMatch(html, /https?:\/\//, 'no other host is named')
  for (const link of ['/info', '/chainweb/0.0/development/cut', '/openapi.json', '/metrics']) t.match(html, `href="${link}"`)
  t.equal(html.match(/<tr><td>\d+<\/td><td>0<\/td>/g)?.length, 20, 'a row per chain at genesis')
  t.match(html, /<dd id="cut-height">0<\/dd>/)
  t.match(html, /<dd id="ready">store<\/dd>/, 'blocks come from the store, not a producer')
  const status = JSON.parse((await send(`${server.url}/status`)).body.toString())
  t.match(status, { network: 'development', profile: 'chainweb', source: 'store', cutHeight: 0, blocksPerSecond: 0, reorgs: [] })
  t.equal(status.chains.length, 20)

  // The search box's answers (the page's script draws them; without it the form shows this JSON).
  const search = async (query: string) => JSON.parse((await send(`${server.url}/search?q=${encodeURIComponent(query)}`)).body.toString())
  const atGenesis = await search('0')
  t.match(atGenesis, { query: '0', kind: 'height', index: 'complete', transactions: [], transfers: [], moreTransfers: false })
  t.same(
    atGenesis.blocks,
    status.chains.map((head: { chain: number; hash: string }) => ({
      chain: head.chain,
      height: 0,
      hash: head.hash,
      canonical: true,
      depth: 0,
    })),
    "every chain's genesis block, canonical",
  )
  const third = status.chains[3].hash
  t.same(await search(` ${third} `), { ...atGenesis, query: third, kind: 'hash', blocks: [atGenesis.blocks[3]] }, 'a block hash')
  t.same((await search('A'.repeat(43))).blocks, [], 'an unknown hash finds nothing')
  t.same((await search('k:nobody')).transfers, [], 'an account without transfers')
  for (const bad of ['/search', '/search?q=', '/search?q=%20', `/search?q=${'x'.repeat(257)}`, '/search?q=1&q=2']) {
    const answer = await send(`${server.url}${bad}`)
    t.equal(answer.status, 400, bad)
    t.match(answer.body.toString(), /Expected query parameter q once/)
  }
})

t.test(
  'in headless Chromium',
  { skip: existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM} (apt-get install chromium)` },
  async (t) => {
    // One devnet node with forks and one browser for both pages: Chromium's start is most of the cost.
    const server = await startNode(t, { data: t.testdir(), network: 'development', devnet: true, blockDelay: 0.3, forkRate: 0.5 })
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: chromiumArgs })
    t.teardown(() => browser.close())

    t.test('the status page updates live', async (t) => {
      const { page, errors } = await watchedPage(browser)
      await page.goto(`${server.url}/`)
      t.equal(await page.title(), 'Weft node · development')
      const firstHeight = Number(await page.textContent('#cut-height'))
      // Live: the script has polled at least twice, and the cut it shows moved on with the producer.
      // Functions, not text (the page's policy forbids eval); `Page` types the DOM, which this package's TypeScript lacks.
      const live = { timeout: 120_000 }
      await page.waitForFunction(
        () => Number((globalThis as unknown as Page).document.getElementById('updated').dataset.updates ?? 0) >= 2,
        undefined,
        live,
      )
      await page.waitForFunction(
        (height) => Number((globalThis as unknown as Page).document.getElementById('cut-height').textContent) > height,
        firstHeight,
        live,
      )
      t.match(await page.textContent('#updated'), /^live, updated \d\d:\d\d:\d\d$/)
      t.equal(await page.textContent('#ready'), 'ready', 'a devnet node is ready once its store is open')
      const rows = await page.$$eval('#chains tr', (trs) =>
        trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')),
      )
      t.equal(rows.length, 20)
      const cut = server.store.cut()
      for (const [chain, height, hash, age] of rows) {
        const head = cut.get(Number(chain))
        t.ok(head !== undefined && Number(height) <= head.height && Number(height) > 0, `chain ${chain} at height ${height}`)
        t.match(hash, /^[A-Za-z0-9_-]{12}…$/)
        // The devnet's creation times are on its network's 30 s grid from the genesis time (years ago),
        // so the age is in hours; it is the head's age as the page rounds it.
        const shown = /^(\d+(?:\.\d)?) (s|min|h)$/.exec(age ?? '')
        const seconds = shown === null ? Number.NaN : Number(shown[1]) * { s: 1, min: 60, h: 3600 }[shown[2] as 's' | 'min' | 'h']
        const expected = Date.now() / 1000 - (head?.creationTime ?? 0) / 1e6
        t.ok(Math.abs(seconds - expected) <= Math.max(120, expected / 50), `chain ${chain}'s age ${age}: about ${Math.round(expected)} s`)
      }
      t.ok(Number(await page.textContent('#rate')) > 0, 'blocks per second')
      t.same(await page.$$eval('nav a', (links) => links.map((link) => link.getAttribute('href'))), [
        '/info',
        '/chain/0.0/development/cut',
        '/openapi.json',
        '/metrics',
      ])
      t.same(errors, [], 'no script error and no refused resource')
    })

    t.test('the search box finds a request key, a block hash, a height and an account', (t) => searchBox(t, server, browser))
  },
)

// The rows the search box shows: found, chain, where, branch (and the title of "where": a full hash).
type FoundRow = [kind: string, chain: string, where: string, branch: string, title: string]

// A new page of `browser` and the errors it reports: a script error, or an error on its console
// (the /ready probe's 404 aside, which the page shows as "not ready" on purpose).
async function watchedPage(browser: Browser): Promise<{ page: BrowserPage; errors: string[] }> {
  const errors: string[] = []
  const page = await browser.newPage()
  page.on('pageerror', (error) => errors.push(error.message))
  page.on('console', (message) => {
    if (message.type() === 'error' && !/\/ready.*404|404.*Not Found/.test(message.text())) errors.push(message.text())
  })
  return { page, errors }
}

async function searchBox(t: Test, server: RunningServer, browser: Browser): Promise<void> {
  const { index } = server.store
  // A coin transfer of a user's transaction (not the coinbase's), a few blocks deep on the winning branch.
  let transfer: TransferCopy | undefined
  await until(async () => {
    const lowestHead = Math.min(...[...server.store.cut().values()].map((head) => head.height))
    if (lowestHead < 5) return false
    const page = await index.events({ module: 'coin', name: 'TRANSFER', maxheight: lowestHead - 4, limit: 100 })
    const event = page.items.find((item) => item.position >= 0 && item.block.canonical && item.block.depth >= 4)
    if (event === undefined) return false
    const [sender] = JSON.parse(event.params) as [string]
    if (sender === '') return false
    const transfers = await index.transfers({ account: sender, limit: 1000 })
    transfer = transfers.items.find((item) => item.requestKey === event.requestKey && item.index === event.index)
    return transfer !== undefined
  }, 'a coin transfer four blocks deep')
  if (transfer === undefined) throw new Error('unreachable')
  const { block, requestKey, sender } = transfer
  // A height where the transfer's chain kept an orphan beside its winner (forkRate 0.5).
  let orphanHeight = -1
  await until(async () => {
    const counts = new Map<number, number>()
    for await (const item of server.store.range({ chain: block.chain, minheight: 1 }))
      counts.set(item.height, (counts.get(item.height) ?? 0) + 1)
    orphanHeight = [...counts].find(([, count]) => count > 1)?.[0] ?? -1
    return orphanHeight > 0
  }, `an orphan on chain ${block.chain}`)

  const { page, errors } = await watchedPage(browser)
  await page.goto(`${server.url}/`)
  const search = async (text: string): Promise<{ summary: string; rows: FoundRow[] }> => {
    await page.fill('#q', text)
    await page.press('#q', 'Enter')
    // The summary names the text once its answer is drawn.
    await page.waitForFunction(
      (text) => ((globalThis as unknown as Page).document.getElementById('search-summary').textContent ?? '').includes(` ${text}`),
      text,
      { timeout: 120_000 },
    )
    const rows = await page.$$eval('#found-rows tr', (trs) =>
      trs.map((tr) => {
        const cells = [...tr.querySelectorAll('td')]
        return [...cells.map((td) => td.textContent ?? ''), cells[2]?.getAttribute('title') ?? '']
      }),
    )
    return { summary: (await page.textContent('#search-summary')) ?? '', rows: rows as FoundRow[] }
  }
  const depthOf = (branch: string): number => Number(/^canonical, depth (\d+)$/.exec(branch)?.[1] ?? Number.NaN)

  const byKey = await search(requestKey)
  const copies = (await index.transaction(requestKey)).copies
  t.match(byKey.summary, `${copies.length} found for request key or block hash ${requestKey}`)
  t.same(
    byKey.rows.map(([kind, chain, where, , title]) => [kind, chain, where, title]),
    copies.map((copy) => [
      'transaction',
      String(copy.block.chain),
      `height ${copy.block.height}, block ${copy.block.hash.slice(0, 12)}…, position ${copy.position}`,
      copy.block.hash,
    ]),
    'every copy of the transaction, at its block and position',
  )
  const ownCopy = byKey.rows.find(([, , , , title]) => title === block.hash)
  t.ok(ownCopy !== undefined && depthOf(ownCopy[3]) >= block.depth, `the copy is canonical, at least ${block.depth} deep: ${ownCopy?.[3]}`)

  const byHash = await search(block.hash)
  t.equal(byHash.rows.length, 1, 'a block hash is no request key: one row')
  t.same(byHash.rows[0]?.slice(0, 3), ['block', String(block.chain), `height ${block.height}, ${block.hash.slice(0, 12)}…`])
  t.ok(depthOf(byHash.rows[0]?.[3] ?? '') >= block.depth, 'the block is canonical')

  const byHeight = await search(String(block.height))
  t.match(byHeight.summary, `found for height ${block.height}`)
  for (const chain of server.store.cut().keys()) {
    const winners = byHeight.rows.filter(
      ([kind, at, , branch]) => kind === 'block' && at === String(chain) && branch.startsWith('canonical'),
    )
    t.equal(winners.length, 1, `chain ${chain}'s winner at height ${block.height}`)
  }
  const withOrphan = await search(String(orphanHeight))
  const onChain = withOrphan.rows.filter(([, chain]) => chain === String(block.chain))
  t.ok(onChain.length >= 2, `chain ${block.chain} has ${onChain.length} blocks at height ${orphanHeight}`)
  t.ok(
    onChain.some(([, , , branch]) => /^orphaned, depth \d+$/.test(branch)),
    'an orphan is marked orphaned',
  )

  // The account's newest 20 transfers, each as the index holds it, exact amounts; blocks keep coming meanwhile.
  const byAccount = await search(sender)
  const stored = new Map(
    (await index.transfers({ account: sender, limit: 1000 })).items.map((item) => [
      `${item.requestKey} ${item.index}`,
      `${item.amount} ${item.token} from ${item.sender || '(none)'} to ${item.receiver || '(none)'}, height ${item.block.height}`,
    ]),
  )
  const shown = byAccount.rows.map(([kind, , where, , title]) => ({ kind, where, title }))
  t.ok(shown.length > 0 && shown.length <= 20, `${shown.length} transfers shown`)
  t.ok(
    shown.every(
      ({ kind, where, title }) => kind === 'transfer' && [...stored].some(([key, text]) => key.startsWith(`${title} `) && text === where),
    ),
    'each a transfer of the account as the index holds it',
  )
  const heights = shown.map(({ where }) => Number(/height (\d+)$/.exec(where)?.[1]))
  t.same(
    heights,
    [...heights].sort((a, b) => b - a),
    'newest first',
  )
  t.match(
    byAccount.summary,
    new RegExp(`^${shown.length} found for account ${sender}${stored.size > 20 ? ' \\(the newest 20 transfers\\)' : ''}`),
  )

  const nothing = await search('no-such-account')
  t.same(nothing.rows, [])
  t.match(nothing.summary, 'Nothing found for account no-such-account')
  t.same(errors, [], 'no script error and no refused resource')
}
