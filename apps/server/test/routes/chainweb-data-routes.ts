import { fill } from '@weft/devnet'
import type { TransactionCopy } from '@weft/store'
import t from 'tap'
import { haskellScientific, utcTime } from '../../src/chainweb-data/detail-bodies.js'
import type { RunningServer } from '../../src/index.js'
import { filledFolder, type RawResponse, send, startNode } from '../fixtures/node.js'

const dir = await filledFolder(t, 'development', 300, 0.1)

type Row = Record<string, unknown>
const rows = (response: RawResponse): Row[] => JSON.parse(response.body.toString('utf8')) as Row[]
const rowKey = (row: Row): string => `${row.blockHash}/${row.requestKey}/${row.idx}`

// Every page of a query, following Chainweb-Next.
async function follow(server: RunningServer, path: string, limit: number): Promise<Row[]> {
  const all: Row[] = []
  let next: string | undefined
  for (;;) {
    const answer = await send(
      `${server.url}${path}${path.includes('?') ? '&' : '?'}limit=${limit}${next === undefined ? '' : `&next=${next}`}`,
    )
    t.equal(answer.status, 200)
    all.push(...rows(answer))
    next = answer.headers['chainweb-next'] as string | undefined
    if (next === undefined) return all
  }
}

t.test('/txs/events: EventDetail rows of the winning branch, newest first, as the index holds them', async (t) => {
  const server = await startNode(t, { data: dir, network: 'development', profile: 'chainweb' })
  const answer = await send(`${server.url}/txs/events?name=coin.TRANSFER&limit=250`)
  t.equal(answer.status, 200)
  const events = rows(answer)
  t.ok(events.length > 20, `${events.length} coin.TRANSFER events`)
  t.same(Object.keys(events[0]!), ['name', 'params', 'moduleHash', 'chain', 'height', 'blockTime', 'blockHash', 'requestKey', 'idx'])
  const expected = (await server.store.index.events({ module: 'coin', name: 'TRANSFER', canonicalOnly: true, limit: 250 })).items
  t.same(
    events.map((row) => [row.blockHash, row.idx, row.params]),
    expected.map((event) => [event.block.hash, event.index, JSON.parse(event.params)]),
  )
  t.ok(events.every((row) => row.name === 'coin.TRANSFER'))
  const heights = events.map((row) => row.height as number)
  t.same(
    heights,
    [...heights].sort((a, b) => b - a),
    'newest first',
  )
  t.ok(
    events.some((row) => row.requestKey === '<coinbase>'),
    "the coinbase's events say <coinbase>",
  )
  const header = JSON.parse(
    (
      await send(`${server.url}/chainweb/0.0/development/chain/${events[0]!.chain}/header/${events[0]!.blockHash}`, {
        headers: { accept: 'application/json;blockheader-encoding=object' },
      })
    ).body.toString('utf8'),
  ) as { creationTime: number }
  t.equal(events[0]!.blockTime, utcTime(header.creationTime), "blockTime is the block's creation time")
  const byModule = rows(await send(`${server.url}/txs/events?modulename=coin&limit=250`))
  t.ok(new Set(byModule.map((row) => row.name)).size > 1, 'modulename=coin: every name of the module')
  t.same(
    rows(await send(`${server.url}/txs/events?modulename=coin&name=TRANSFER&limit=5`)),
    events.slice(0, 5),
    'a bare name with modulename',
  )
})

t.test('paging: Chainweb-Next and offset agree; following the token skips and repeats nothing as blocks arrive', async (t) => {
  const server = await startNode(t, { data: dir, network: 'development', profile: 'chainweb' })
  const path = '/txs/events?name=coin.TRANSFER'
  const whole = await follow(server, path, 250)
  t.ok(whole.length > 40)
  const byToken = await follow(server, path, 7)
  t.same(byToken.map(rowKey), whole.map(rowKey), 'pages of 7 by token make the whole')
  const byOffset = rows(await send(`${server.url}${path}&limit=7&offset=14`))
  t.same(byOffset.map(rowKey), whole.slice(14, 21).map(rowKey), 'offset skips')
  t.equal((await send(`${server.url}${path}&limit=1000`)).body.length > 0, true)
  t.ok(rows(await send(`${server.url}${path}&limit=1000`)).length <= 250, 'limit capped at 250')

  const firstPage = await send(`${server.url}${path}&limit=10`)
  const token = firstPage.headers['chainweb-next'] as string
  await fill(server.store, { blocks: 80, seed: 'arrivals' })
  const rest: Row[] = []
  let next: string | undefined = token
  while (next !== undefined) {
    const page: RawResponse = await send(`${server.url}${path}&limit=10&next=${next}`)
    rest.push(...rows(page))
    next = page.headers['chainweb-next'] as string | undefined
  }
  const seen = [...rows(firstPage), ...rest].map(rowKey)
  t.equal(new Set(seen).size, seen.length, 'no row repeated')
  const known = new Set(whole.map(rowKey))
  t.same(
    seen.filter((key) => known.has(key)),
    whole.map(rowKey),
    'no row skipped although 80 blocks arrived (new blocks of a chain below the cursor height come in later pages)',
  )
})

t.test('chainweb-data errors: 400 text', async (t) => {
  const server = await startNode(t, { data: dir, network: 'development', profile: 'chainweb' })
  for (const [query, message] of [
    ['name=coin.TRANSFER&offset=1&next=abc', /^next token query parameter not allowed with offset/],
    ['name=coin.TRANSFER&offset=10001', /maximum allowed offset is 10,000/],
    ['name=coin.TRANSFER&limit=x', /^Error parsing query parameter limit failed/],
    ['search=coin', /does not answer search=/],
    ['param=x&name=coin.TRANSFER', /does not answer param=/],
    ['name=TRANSFER', /qualified event name/],
    ['', /neither/],
    ['name=coin.TRANSFER&next=not-a-token', /./],
  ] as const) {
    const answer = await send(`${server.url}/txs/events?${query}`)
    t.equal(answer.status, 400, query)
    t.equal(answer.headers['content-type'], 'text/plain;charset=utf-8')
    t.match(answer.body.toString('utf8'), message)
  }
  t.equal((await send(`${server.url}/txs/account/x?chain=99`)).status, 400, 'a chain the network lacks')
})

t.test('/txs/account/{account}: TransferDetail rows, amounts as chainweb-data shows them', async (t) => {
  const server = await startNode(t, { data: dir, network: 'development', profile: 'chainweb' })
  const transfer = (await server.store.index.events({ module: 'coin', name: 'TRANSFER', canonicalOnly: true, limit: 50 })).items.find(
    (event) => (JSON.parse(event.params) as unknown[])[0] !== '',
  )!
  const account = (JSON.parse(transfer.params) as string[])[0]!
  const answer = await send(`${server.url}/txs/account/${encodeURIComponent(account)}?limit=250`)
  t.equal(answer.status, 200)
  const transfers = rows(answer)
  const expected = (await server.store.index.transfers({ account, canonicalOnly: true, limit: 250 })).items
  t.ok(transfers.length > 0 && transfers.length === expected.length, `${transfers.length} transfers of ${account.slice(0, 12)}…`)
  t.same(Object.keys(transfers[0]!), [
    'blockHash',
    'requestKey',
    'chain',
    'height',
    'idx',
    'token',
    'fromAccount',
    'toAccount',
    'amount',
    'blockTime',
    'crossChainAccount',
    'crossChainId',
  ])
  t.same(
    transfers.map((row) => row.amount),
    expected.map((item) => haskellScientific(item.amount)),
  )
  t.ok(transfers.every((row) => row.fromAccount === account || row.toAccount === account))
  const chain = transfers[0]!.chain as number
  const onChain = rows(await send(`${server.url}/txs/account/${encodeURIComponent(account)}?limit=250&chain=${chain}`))
  t.same(onChain.map(rowKey), transfers.filter((row) => row.chain === chain).map(rowKey), 'chain= filters')
  t.same(rows(await send(`${server.url}/txs/account/${encodeURIComponent(account)}?token=other.coin`)), [], 'another token: none')
})

t.test('the spec profile has none of it; --no-index answers INDEX_DISABLED', async (t) => {
  const spec = await startNode(t, { data: dir, network: 'development', profile: 'spec' })
  t.equal((await send(`${spec.url}/txs/events?name=coin.TRANSFER`)).status, 404)
  const folder = await filledFolder(t, 'development', 40, 0)
  const server = await startNode(t, { data: folder, network: 'development', profile: 'chainweb', index: false })
  const answer = await send(`${server.url}/txs/events?name=coin.TRANSFER`)
  t.equal(answer.status, 501)
  t.match(answer.body.toString('utf8'), /--no-index/)
})

t.test('/txs/tx, /txs/txs and /txs/recent: TxDetail and TxSummary from the stored command and result', async (t) => {
  const server = await startNode(t, { data: dir, network: 'development', profile: 'chainweb' })
  const all: TransactionCopy[] = []
  for (const { block } of (await server.store.index.blocks({ limit: 1000 })).items)
    all.push(...((await server.store.index.blockTransactions(block.hash)) ?? []))
  const canonical = all.filter((copy) => copy.block.canonical)
  const copy = canonical[0]!
  const answer = await send(`${server.url}/txs/tx?requestkey=${copy.requestKey}`)
  t.equal(answer.status, 200)
  const detail = JSON.parse(answer.body.toString('utf8')) as Row
  t.same(Object.keys(detail), [
    'ttl',
    'gasLimit',
    'gasPrice',
    'nonce',
    'pactId',
    'rollback',
    'step',
    'data',
    'proof',
    'gas',
    'result',
    'logs',
    'metadata',
    'continuation',
    'txid',
    'chain',
    'height',
    'blockTime',
    'blockHash',
    'creationTime',
    'requestKey',
    'sender',
    'code',
    'success',
    'events',
    'initialCode',
    'previousSteps',
    'signers',
    'sigs',
    'verifiers',
  ])
  // The same facts read independently: the block's payload over HTTP, parsed whole.
  const base = `${server.url}/chainweb/0.0/development/chain/${copy.block.chain}`
  const header = JSON.parse(
    (
      await send(`${base}/header/${copy.block.hash}`, { headers: { accept: 'application/json;blockheader-encoding=object' } })
    ).body.toString('utf8'),
  ) as Row
  const payload = JSON.parse((await send(`${base}/payload/${String(header.payloadHash)}/outputs`)).body.toString('utf8')) as {
    transactions: Array<[string, string]>
  }
  const [signedText = '', outputText = ''] = payload.transactions[copy.position]!
  const signed = JSON.parse(Buffer.from(signedText, 'base64url').toString('utf8')) as { cmd: string; sigs: unknown[] }
  const cmd = JSON.parse(signed.cmd) as { nonce: string; meta: Row; payload: { exec?: { code: string; data: unknown } } }
  const output = JSON.parse(Buffer.from(outputText, 'base64url').toString('utf8')) as Row & { result: Row; events?: Row[] }
  t.same(
    [detail.ttl, detail.gasLimit, detail.gasPrice, detail.nonce, detail.sender, detail.code, detail.data],
    [
      cmd.meta.ttl,
      cmd.meta.gasLimit,
      cmd.meta.gasPrice,
      cmd.nonce,
      cmd.meta.sender,
      cmd.payload.exec?.code ?? null,
      cmd.payload.exec?.data ?? null,
    ],
  )
  t.same(
    [detail.gas, detail.txid, detail.success, detail.result],
    [output.gas, output.txId ?? 0, output.result.status === 'success', output.result.data ?? output.result.error],
  )
  t.same(
    [detail.requestKey, detail.blockHash, detail.height, detail.blockTime],
    [copy.requestKey, copy.block.hash, header.height, utcTime(header.creationTime as number)],
  )
  t.equal((detail.events as Row[]).length, (output.events ?? []).length)
  t.same(detail.sigs, signed.sigs)

  const continued = canonical.find((candidate) => candidate.command.includes('\\"cont\\"'))
  if (continued !== undefined) {
    const step = JSON.parse((await send(`${server.url}/txs/tx?requestkey=${continued.requestKey}`)).body.toString('utf8')) as Row
    t.type(step.pactId, 'string', 'a continuation names its pact')
    const origin = JSON.parse((await send(`${server.url}/txs/tx?requestkey=${step.pactId}`)).body.toString('utf8')) as Row
    t.equal(step.initialCode, origin.code, "initialCode: the pact's first transaction's code")
    t.type(step.previousSteps, Array)
  }

  const orphanOnly = all.find(
    (candidate) => !candidate.block.canonical && !canonical.some((other) => other.requestKey === candidate.requestKey),
  )
  if (orphanOnly !== undefined) {
    const missing = await send(`${server.url}/txs/tx?requestkey=${orphanOnly.requestKey}`)
    t.equal(missing.status, 404, 'a transaction only orphans hold is not /txs/tx')
    t.equal(missing.body.toString('utf8'), 'Tx not found\n')
    const copies = JSON.parse((await send(`${server.url}/txs/txs?requestkey=${orphanOnly.requestKey}`)).body.toString('utf8')) as Row[]
    t.ok(copies.length >= 1 && copies.every((row) => row.requestKey === orphanOnly.requestKey), '/txs/txs lists every copy')
  }
  const none = await send(`${server.url}/txs/txs?requestkey=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`)
  t.equal(none.status, 404)
  t.equal((await send(`${server.url}/txs/tx`)).body.toString('utf8'), 'You must specify a search string\n')
  t.equal((await send(`${server.url}/txs/tx?requestkey=short`)).status, 404)

  const recent = JSON.parse((await send(`${server.url}/txs/recent`)).body.toString('utf8')) as Row[]
  t.equal(recent.length, 10)
  t.same(Object.keys(recent[0]!), [
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
  t.same(
    recent.map((row) => row.requestKey),
    canonical.slice(0, 10).map((item) => item.requestKey),
    'the newest ten of the winning branch',
  )
})

t.test("Haskell's show of a Scientific and aeson's UTCTime", async (t) => {
  const cases: Array<[string, string]> = [
    ['0', '0.0'],
    ['1', '1.0'],
    ['0.5', '0.5'],
    ['0.1', '0.1'],
    ['0.09', '9.0e-2'],
    ['0.00741', '7.41e-3'],
    ['100', '100.0'],
    ['1234567', '1234567.0'],
    ['10000000', '1.0e7'],
    ['12345678.9', '1.23456789e7'],
    ['-0.00741', '-7.41e-3'],
    ['123.456', '123.456'],
  ]
  for (const [amount, shown] of cases) t.equal(haskellScientific(amount), shown, amount)
  t.equal(utcTime(1563388627613832), '2019-07-17T18:37:07.613832Z')
  t.equal(utcTime(1563388627000000), '2019-07-17T18:37:07Z')
  t.equal(utcTime(1563388627000100), '2019-07-17T18:37:07.0001Z')
})
