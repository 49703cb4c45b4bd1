import { createServer } from 'node:http'
import Router from '@koa/router'
import { fill } from '@weft/devnet'
import { openStore } from '@weft/store'
import Koa from 'koa'
import { pino } from 'pino'
import t from 'tap'
import { errorMapping } from '../../src/http/error-mapping.js'
import { BlockWaits } from '../../src/pact/block-waits.js'
import { errorTables } from '../../src/profile/error-table.js'
import { registerChainwebDataRoutes } from '../../src/routes/chainweb-data-routes.js'
import { registerIndexRoutes } from '../../src/routes/index-routes.js'
import { registerPactRoutes } from '../../src/routes/pact-routes.js'
import { sendUnchecked } from '../fixtures/node.js'

// A store written without its index, opened with it but its catch-up held (`indexCatchUp: false`):
// it stays catching up, the older blocks unindexed, while new blocks are indexed as they are written.
t.test('while the index catches up, a key not found is 503 INDEX_CATCHING_UP, a key found is answered', async (t) => {
  const path = t.testdir()
  const unindexed = await openStore({ path, network: 'development', index: false })
  await fill(unindexed, { blocks: 100, seed: 'old' })
  const oldKeys: Array<{ key: string; chain: number }> = []
  for await (const item of unindexed.range({ chain: 4 })) {
    const payload = JSON.parse(item.payloadJson.toString('utf8')) as { transactions: Array<[string, string]> }
    for (const [, output] of payload.transactions)
      oldKeys.push({ key: (JSON.parse(Buffer.from(output, 'base64url').toString('utf8')) as { reqKey: string }).reqKey, chain: 4 })
  }
  await unindexed.close()
  t.ok(oldKeys.length > 0, `${oldKeys.length} transactions in unindexed blocks of chain 4`)

  const store = await openStore({ path, network: 'development', indexCatchUp: false })
  t.teardown(() => store.close())
  t.equal(store.index.status().state, 'catching-up')
  await fill(store, { blocks: 60, seed: 'new' })
  const page = await store.index.blocks({ chain: 4, limit: 1, canonicalOnly: true })
  const [fresh] = (await store.index.blockTransactions(page.items[0]!.block.hash)) ?? []

  const waits = new BlockWaits(store)
  t.teardown(() => waits.close())
  const app = new Koa()
  app.silent = true
  const router = new Router()
  registerPactRoutes(
    router,
    { index: store.index, blockWaits: waits, chains: new Set([...Array(20).keys()]), bodyLimit: 1 << 20, listenTimeout: 5 },
    '/b',
  )
  // The spec profile's index resources, on the same store.
  registerIndexRoutes(router, { index: store.index, chains: new Set([...Array(20).keys()]) }, '/s')
  // chainweb-data's routes, at the host root as the chainweb profile serves them.
  registerChainwebDataRoutes(router, { index: store.index, chains: new Set([...Array(20).keys()]) })
  app.use(errorMapping(errorTables.chainweb, pino({ level: 'silent' })))
  app.use(router.routes())
  const server = createServer(app.callback())
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())))
  const root = `http://127.0.0.1:${(server.address() as { port: number }).port}`
  const url = `${root}/b/chain/4/pact/api/v1`
  const post = (endpoint: string, body: unknown) =>
    sendUnchecked(`${url}/${endpoint}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

  const found = await post('poll', { requestKeys: [fresh!.requestKey] })
  t.equal(found.status, 200, 'a transaction of a new block is found')
  t.same(Object.keys(JSON.parse(found.body.toString('utf8'))), [fresh!.requestKey])
  for (const [endpoint, body] of [
    ['poll', { requestKeys: [oldKeys[0]!.key] }],
    ['poll', { requestKeys: [fresh!.requestKey, oldKeys[0]!.key] }],
    ['listen', { listen: oldKeys[0]!.key }],
  ] as const) {
    const answer = await post(endpoint, body)
    t.equal(answer.status, 503, `${endpoint} ${JSON.stringify(body)}: no answer that would say "not mined"`)
    t.equal(answer.headers['retry-after'], '10')
    t.match(answer.body.toString('utf8'), /catching up/)
  }
  // The index resources: what the index has is answered; where only unindexed blocks could answer, 503.
  t.equal((await sendUnchecked(`${root}/s/transaction/${fresh!.requestKey}`)).status, 200, 'a transaction of a new block')
  for (const path of [
    `transaction/${oldKeys[0]!.key}`,
    'event?module=coin&chain=4&maxheight=1',
    'transfer?account=sender00&chain=4&maxheight=1',
  ]) {
    const answer = await sendUnchecked(`${root}/s/${path}`)
    t.equal(answer.status, 503, `${path}: INDEX_CATCHING_UP, not an empty answer`)
    t.match(answer.body.toString('utf8'), /catching up/)
  }
  // chainweb-data's pages answer what the index has, and say below which height they could not
  // answer yet (the highest of the chains' catch-up positions): every row lies at or above it.
  const status = store.index.status()
  if (status.state !== 'catching-up') throw new Error(`Expected the index to be catching up, but it is ${status.state}`)
  // Over every chain, the highest position; on one chain, that chain's.
  const top = Math.max(...Object.values(status.completeFrom))
  const dataPage = async (path: string, complete: number): Promise<Array<{ height: number; chain: number; params: unknown[] }>> => {
    const answer = await sendUnchecked(`${root}/${path}`)
    t.equal(answer.status, 200, path)
    t.equal(answer.headers['weft-incomplete-below'], String(complete), `${path}: Weft-Incomplete-Below says where it could not answer yet`)
    const rows = JSON.parse(answer.body.toString('utf8')) as Array<{ height: number; chain: number; params: unknown[] }>
    t.ok(rows.length > 0, `${path}: ${rows.length} rows`)
    t.ok(
      rows.every((row) => row.height >= complete),
      `${path}: every row at or above ${complete}`,
    )
    return rows
  }
  const events = await dataPage(`txs/events?name=coin.TRANSFER&limit=250&maxheight=${top + 3}`, top)
  // An account that received coins on chain 4 in the new blocks: its page stops at chain 4's position.
  const receiver = events.find((row) => row.chain === 4 && row.params[1] !== '')?.params[1]
  if (typeof receiver !== 'string') throw new Error('Expected a coin.TRANSFER on chain 4 among the new blocks')
  await dataPage(`txs/account/${encodeURIComponent(receiver)}?chain=4&limit=250`, status.completeFrom['4']!)
})
