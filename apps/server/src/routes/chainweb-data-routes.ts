import type Router from '@koa/router'
import type { RouterContext } from '@koa/router'
import type { TransactionCopy, TransactionIndex } from '@weft/store'
import { type DataPage, naturalParam, parseDataPaging, readDataPage } from '../chainweb-data/data-paging.js'
import { eventDetail, transferDetail } from '../chainweb-data/detail-bodies.js'
import { type PactHistory, txDetail, txSummary } from '../chainweb-data/tx-bodies.js'
import { searchTransactions } from '../chainweb-data/tx-search.js'
import { InvalidQueryError, NoPactStateError, TxNotFoundError } from '../errors.js'
import { negotiate } from '../http/negotiation.js'
import { writeJson } from '../http/responses.js'
import { memberText } from '../pact/json-members.js'

/** What chainweb-data's routes touch: the transaction index and the network's chain ids. */
export interface ChainwebDataRouteParts {
  readonly index: TransactionIndex
  readonly chains: ReadonlySet<number>
}

const first = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value)

// Where chainweb-data answers `Chainweb-Next`: the token of the next page, when there may be one.
function writeDataPage<T>(ctx: RouterContext, page: DataPage<T>, body: (item: T) => string): void {
  if (page.next !== undefined) ctx.set('chainweb-next', page.next)
  // While the index catches up a page stops above the blocks not indexed yet (the token goes on from there later).
  if (page.incompleteBelow !== undefined) ctx.set('weft-incomplete-below', String(page.incompleteBelow))
  writeJson(ctx, Buffer.from(`[${page.items.map(body).join(',')}]`))
}

/** The module and name an events query names: `modulename` exact, `name` a qualified name (`coin.TRANSFER`) or, with `modulename`, a bare one. */
function eventQuery(query: RouterContext['query']): { module: string; name?: string } {
  for (const unsupported of ['search', 'param'])
    if (first(query[unsupported]) !== undefined)
      throw new InvalidQueryError(
        `Weft does not answer ${unsupported}= (a substring search over every event's parameters or names has no bounded cost on its index): ask by name= (a qualified name) or modulename=`,
      )
  const module = first(query.modulename)
  const name = first(query.name)
  if (name !== undefined && module === undefined) {
    const dot = name.lastIndexOf('.')
    if (dot <= 0)
      throw new InvalidQueryError(
        `Expected name= to be a qualified event name (coin.TRANSFER), received ${JSON.stringify(name.slice(0, 64))}`,
      )
    return { module: name.slice(0, dot), name: name.slice(dot + 1) }
  }
  if (module === undefined) throw new InvalidQueryError('Expected name= (a qualified event name) or modulename=, received neither')
  if (name === undefined) return { module }
  return { module, name: name.startsWith(`${module}.`) ? name.slice(module.length + 1) : name }
}

/** chainweb-data's `/txs/recent`: the 10 newest transactions. */
const RECENT = 10
/** chainweb-data's `/txs/search?pactid=`: 50 transactions at most, no paging. */
const PACT_STEPS_MAX = 50

// The history chainweb-data joins to a continuation: the code of the pact's first transaction and the
// request keys of its steps before this one, on the winning branch; none for a transaction that continues no pact.
async function historyOf(index: TransactionIndex, copy: TransactionCopy): Promise<PactHistory> {
  const cmd = JSON.parse(memberText(copy.command, 'cmd') ?? '""') as string
  const pactId = memberText(memberText(memberText(cmd, 'payload'), 'cont'), 'pactId')
  if (pactId === undefined) return { initialCode: null, previousSteps: null }
  const id = JSON.parse(pactId) as string
  const [origin] = (await index.transaction(id)).copies.filter((other) => other.block.canonical)
  if (origin === undefined) return { initialCode: null, previousSteps: null }
  const originCmd = JSON.parse(memberText(origin.command, 'cmd') ?? '""') as string
  const code = memberText(memberText(memberText(originCmd, 'payload'), 'exec'), 'code')
  const steps = (await index.pactSteps(id)).copies
    .filter((step) => step.block.canonical && step.requestKey !== copy.requestKey && step.block.height <= copy.block.height)
    .sort((a, b) => a.block.height - b.block.height)
  return { initialCode: code === undefined ? null : (JSON.parse(code) as string), previousSteps: steps.map((step) => step.requestKey) }
}

/**
 * chainweb-data's API (kadena-io/chainweb-api `ChainwebData/Api.hs`, kadena-io/chainweb-data
 * `exec/Chainweb/Server.hs`) at the host root, answered from the transaction index: events and an
 * account's transfers, pages of `limit` (10, at most 250) after `offset` or from `next` (the
 * `Chainweb-Next` token of the page before), winning branch only.
 */
export function registerChainwebDataRoutes(router: Router, parts: ChainwebDataRouteParts): void {
  const { index, chains } = parts

  const requestKeyOf = (ctx: RouterContext): string => {
    negotiate(ctx.get('accept') || undefined)
    const key = first(ctx.query.requestkey)
    if (key === undefined) throw new TxNotFoundError('You must specify a search string')
    return key
  }
  // A key that cannot name a transaction names none: chainweb-data's 404, not a 400.
  const copiesOf = async (key: string): Promise<TransactionCopy[]> =>
    key.length === 43 && /^[A-Za-z0-9_-]+$/.test(key) ? (await index.transaction(key)).copies : []

  router.get('/txs/tx', async (ctx) => {
    const copy = (await copiesOf(requestKeyOf(ctx))).find((candidate) => candidate.block.canonical)
    if (copy === undefined) throw new TxNotFoundError('Tx not found')
    writeJson(ctx, Buffer.from(txDetail(copy, await historyOf(index, copy))))
  })

  router.get('/txs/txs', async (ctx) => {
    const copies = await copiesOf(requestKeyOf(ctx))
    if (copies.length === 0) throw new TxNotFoundError('Tx not found')
    const details = await Promise.all(copies.map(async (copy) => txDetail(copy, await historyOf(index, copy))))
    writeJson(ctx, Buffer.from(`[${details.join(',')}]`))
  })

  router.get('/txs/recent', async (ctx) => {
    negotiate(ctx.get('accept') || undefined)
    const recent: TransactionCopy[] = []
    let next: string | undefined
    do {
      const page = await index.blocks({ canonicalOnly: true, limit: RECENT, ...(next === undefined ? {} : { next }) })
      for (const { block } of page.items) recent.push(...((await index.blockTransactions(block.hash)) ?? []))
      next = page.next
    } while (recent.length < RECENT && next !== undefined)
    const summaries = await Promise.all(recent.slice(0, RECENT).map(async (copy) => txSummary(copy, await historyOf(index, copy))))
    writeJson(ctx, Buffer.from(`[${summaries.join(',')}]`))
  })

  router.get('/txs/search', async (ctx) => {
    negotiate(ctx.get('accept') || undefined)
    const search = first(ctx.query.search)
    const pactId = first(ctx.query.pactid)
    if (search !== undefined && pactId !== undefined)
      throw new InvalidQueryError('You should only specify a pactid or a search string, not both!')
    const paging = parseDataPaging(ctx.query)
    const summaries = async (copies: TransactionCopy[]): Promise<string[]> =>
      Promise.all(copies.map(async (copy) => txSummary(copy, await historyOf(index, copy))))
    if (search !== undefined) {
      const page = await searchTransactions(index, search, paging)
      const bodies = await summaries(page.items)
      return writeDataPage(ctx, { ...page, items: bodies }, (body) => body)
    }
    if (pactId === undefined) throw new TxNotFoundError('You must specify a search string')
    // The later steps of the pact, newest first, as chainweb-data's `pactid=`: no Chainweb-Next.
    const steps = (await index.pactSteps(pactId)).copies
      .filter((copy) => copy.block.canonical)
      .sort((a, b) => b.block.height - a.block.height || a.block.chain - b.block.chain)
      .slice(0, Math.min(paging.limit, PACT_STEPS_MAX))
    writeJson(ctx, Buffer.from(`[${(await summaries(steps)).join(',')}]`))
  })

  router.get('/txs/events', async (ctx) => {
    negotiate(ctx.get('accept') || undefined)
    const paging = parseDataPaging(ctx.query)
    const query = eventQuery(ctx.query)
    writeDataPage(ctx, await readDataPage((options) => index.events({ ...query, ...options }), paging), eventDetail)
  })

  router.get('/txs/account/:account', async (ctx) => {
    negotiate(ctx.get('accept') || undefined)
    const paging = parseDataPaging(ctx.query)
    const chain = naturalParam(ctx.query, 'chain')
    if (chain !== undefined && !chains.has(chain))
      throw new InvalidQueryError(`Expected chain= to be a chain of the network, received ${chain}`)
    const token = first(ctx.query.token) ?? 'coin'
    const account = ctx.params.account ?? ''
    const page = await readDataPage(
      (options) => index.transfers({ account, token, ...options }),
      paging,
      chain === undefined ? {} : { chain },
    )
    writeDataPage(ctx, page, (transfer) => JSON.stringify(transferDetail(transfer)))
  })

  // Neither figure is in the blocks: see the README's "chainweb-data's API" for why, and what answers it.
  router.get('/stats', (ctx) => {
    negotiate(ctx.get('accept') || undefined)
    writeJson(ctx, Buffer.from('{"transactionCount":null,"coinsInCirculation":null}'))
  })
  router.get('/coins', () => {
    throw new NoPactStateError(
      "GET /coins (the sum of the coin table's balances)",
      "Ask a chainweb-node's /local for coin.coin-table's balances, chain by chain",
    )
  })
}
