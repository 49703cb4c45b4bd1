import { existsSync } from 'node:fs'
import { chromium } from 'playwright-core'
import t from 'tap'
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
})

t.test(
  'in headless Chromium the status page updates live',
  { skip: existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM} (apt-get install chromium)` },
  async (t) => {
    const server = await startNode(t, { data: t.testdir(), network: 'development', devnet: true, blockDelay: 0.3, forkRate: 0.5 })
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: chromiumArgs })
    t.teardown(() => browser.close())
    const errors: string[] = []
    const page = await browser.newPage()
    page.on('pageerror', (error) => errors.push(error.message))
    page.on('console', (message) => {
      if (message.type() === 'error' && !/\/ready.*404|404.*Not Found/.test(message.text())) errors.push(message.text())
    })
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
    const rows = await page.$$eval('#chains tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')))
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
  },
)
