import { join } from 'node:path'
import { fill, reorg } from '@weft/devnet'
import { openStore, type TransactionCopy } from '@weft/store'
import { until } from '@weft/test-kit'
import t from 'tap'
import type { RunningServer } from '../../src/index.js'
import { filledFolder, postRaw, type RawResponse, send, startNode } from '../fixtures/node.js'

// One devnet-filled folder (20 chains, forks) for the file; the tests that write make their own.
const dir = await filledFolder(t, 'development', 240, 0.1)

// A folder filled as filledFolder fills one: two of them are in the same state (fill is deterministic).
async function folderIn(parent: string, name: string): Promise<string> {
  const path = join(parent, name)
  const store = await openStore({ path, network: 'development' })
  await fill(store, { blocks: 120, forkRate: 0.1, seed: 'server-tests' })
  await store.close()
  return path
}

const json = (response: RawResponse): Record<string, Record<string, unknown>> => JSON.parse(response.body.toString('utf8'))
const pactBase = (server: RunningServer, chain: number): string => `${server.url}/chainweb/0.0/development/chain/${chain}/pact`

// The output of a transaction as its block's payload holds it, read over HTTP (not from the index), and the block's header.
async function fromPayload(
  server: RunningServer,
  copy: TransactionCopy,
): Promise<{ output: Record<string, unknown>; header: Record<string, unknown> }> {
  const base = `${server.url}/chainweb/0.0/development/chain/${copy.block.chain}`
  const header = json(
    await send(`${base}/header/${copy.block.hash}`, { headers: { accept: 'application/json;blockheader-encoding=object' } }),
  )
  const payload = json(await send(`${base}/payload/${String(header.payloadHash)}/outputs`)) as unknown as {
    transactions: Array<[string, string]>
  }
  const [, output = ''] = payload.transactions[copy.position] ?? []
  return { output: JSON.parse(Buffer.from(output, 'base64url').toString('utf8')), header }
}

// Every stored transaction, newest block first, read from the store's own index (what to ask about; the answers are checked against the payloads).
async function storedTransactions(server: RunningServer): Promise<TransactionCopy[]> {
  const copies: TransactionCopy[] = []
  let next: string | undefined
  do {
    const page = await server.store.index.blocks({ limit: 1000, ...(next === undefined ? {} : { next }) })
    for (const { block } of page.items) copies.push(...((await server.store.index.blockTransactions(block.hash)) ?? []))
    next = page.next
  } while (next !== undefined)
  return copies
}

t.test('/poll answers the stored command result with the block metadata the node adds, winning branch only', async (t) => {
  const server = await startNode(t, { data: dir, network: 'development', profile: 'chainweb' })
  const copies = await storedTransactions(server)
  const canonical = copies.filter((copy) => copy.block.canonical)
  const orphanedOnly = copies.filter((copy) => !copies.some((other) => other.requestKey === copy.requestKey && other.block.canonical))
  t.ok(canonical.length >= 20, `${canonical.length} transactions on the winning branch`)
  t.ok(orphanedOnly.length > 0, `${orphanedOnly.length} transactions held by orphans only`)

  const chain = canonical[0]!.block.chain
  const onChain = canonical.filter((copy) => copy.block.chain === chain).slice(0, 6)
  const asked = [...onChain.map((copy) => copy.requestKey), 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', onChain[0]!.requestKey]
  const answer = await postRaw(`${pactBase(server, chain)}/api/v1/poll`, { requestKeys: asked })
  t.equal(answer.status, 200)
  t.match(answer.headers['content-type'], /^application\/json/)
  const results = json(answer)
  t.same(Object.keys(results).sort(), onChain.map((copy) => copy.requestKey).sort(), 'every key found once; the unknown key left out')
  for (const copy of onChain) {
    const { output, header } = await fromPayload(server, copy)
    const metaData = { blockTime: header.creationTime, prevBlockHash: header.parent, blockHash: header.hash, blockHeight: header.height }
    t.same(results[copy.requestKey], { ...output, metaData }, `${copy.requestKey}: the payload's output, metaData from its header`)
    t.same(Object.keys(results[copy.requestKey]!), Object.keys(output), 'keys in the order the output has them')
    t.same(Object.keys(results[copy.requestKey]!.metaData as object), ['blockTime', 'prevBlockHash', 'blockHash', 'blockHeight'])
  }
  // An output's text is kept byte for byte but for metaData.
  const first = onChain[0]!
  t.ok(answer.body.toString('utf8').includes(first.result.slice(0, first.result.indexOf('"metaData"'))), 'bytes before metaData kept')

  const orphan = orphanedOnly[0]!
  const none = await postRaw(`${pactBase(server, orphan.block.chain)}/api/v1/poll`, { requestKeys: [orphan.requestKey] })
  t.equal(none.body.toString('utf8'), '{}', 'a transaction held only by orphans is not answered')
  const elsewhere = (first.block.chain + 1) % 20
  const other = await postRaw(`${pactBase(server, elsewhere)}/api/v1/poll`, { requestKeys: [first.requestKey] })
  t.equal(other.body.toString('utf8'), '{}', "another chain's /poll does not find it")
})

t.test('confirmationDepth: only results at least that many blocks below the head', async (t) => {
  const server = await startNode(t, { data: dir, network: 'development', profile: 'chainweb' })
  const copy = (await storedTransactions(server)).find((candidate) => candidate.block.canonical && candidate.block.depth >= 1)!
  const poll = (depth: string) =>
    postRaw(`${pactBase(server, copy.block.chain)}/api/v1/poll?confirmationDepth=${depth}`, { requestKeys: [copy.requestKey] })
  t.same(Object.keys(json(await poll(String(copy.block.depth)))), [copy.requestKey], `found at its depth, ${copy.block.depth}`)
  t.same(Object.keys(json(await poll('0'))), [copy.requestKey], 'found at depth 0')
  t.equal((await poll(String(copy.block.depth + 1))).body.toString('utf8'), '{}', 'not one block deeper')
  t.equal((await poll('18446744073709551615')).body.toString('utf8'), '{}', 'the largest Word64')
  for (const bad of ['-1', 'x', '1.5', '18446744073709551616']) {
    const refused = await poll(bad)
    t.equal(refused.status, 400, `confirmationDepth=${bad}`)
    t.match(refused.body.toString('utf8'), /^Error parsing query parameter confirmationDepth failed/)
  }
})

t.test('malformed bodies are 400 text, as servant answers them', async (t) => {
  const server = await startNode(t, { data: dir, network: 'development', profile: 'chainweb' })
  const poll = `${pactBase(server, 0)}/api/v1/poll`
  for (const [body, message] of [
    [{ requestKeys: [] }, /NonEmpty/],
    [{}, /key "requestKeys" not found/],
    [[], /expected an object/],
    [{ requestKeys: 'x' }, /expected an array/],
    [{ requestKeys: [1] }, /\$\.requestKeys\[0\]/],
    [{ requestKeys: ['not base64!'] }, /\$\.requestKeys\[0\]/],
  ] as const) {
    const answer = await postRaw(poll, body)
    t.equal(answer.status, 400, JSON.stringify(body))
    t.equal(answer.headers['content-type'], 'text/plain;charset=utf-8')
    t.match(answer.body.toString('utf8'), message)
  }
  t.equal((await postRaw(poll, { requestKeys: ['abc'] })).body.toString('utf8'), '{}', 'a short key names nothing')
  t.equal((await postRaw(`${pactBase(server, 0)}/api/v1/listen`, { other: 1 })).status, 400)
  t.equal((await postRaw(`${pactBase(server, 99)}/api/v1/poll`, { requestKeys: ['abc'] })).status, 404, 'unknown chain')
  t.equal((await send(poll, { method: 'POST', body: '{}' })).status, 415, 'no content type')
})

t.test('/send, /local and the SPV endpoints answer NO_PACT_STATE: 501, text', async (t) => {
  const server = await startNode(t, { data: dir, network: 'development', profile: 'chainweb' })
  for (const endpoint of ['api/v1/send', 'api/v1/local', 'spv', 'spv2', 'spv/eth']) {
    const answer = await postRaw(`${pactBase(server, 3)}/${endpoint}`, { cmds: [] })
    t.equal(answer.status, 501, endpoint)
    t.equal(answer.headers['content-type'], 'text/plain;charset=utf-8')
    t.match(answer.body.toString('utf8'), /holds none.*chainweb-node/)
  }
  t.equal((await send(`${pactBase(server, 3)}/api/v1/poll`)).status, 405, 'GET /poll: POST only')
})

t.test('the spec profile serves none of the Pact service', async (t) => {
  const server = await startNode(t, { data: dir, network: 'development', profile: 'spec' })
  const answer = await postRaw(`${server.url}/chain/0.0/development/chain/0/pact/api/v1/poll`, { requestKeys: ['abc'] })
  t.equal(answer.status, 404)
})

t.test('/listen: at once when on the winning branch, when a block brings it, 504 after its time', async (t) => {
  // The twin mines 60 more blocks; the node's store then mines the same ones while a client listens.
  const folder = t.testdir()
  const own = await folderIn(folder, 'node')
  const ahead = await openStore({ path: await folderIn(folder, 'twin'), network: 'development' })
  const before = new Set((await storedTransactionsOf(ahead)).map((copy) => copy.requestKey))
  await fill(ahead, { blocks: 60, seed: 'listen' })
  const newer = (await storedTransactionsOf(ahead)).find((copy) => copy.block.canonical && !before.has(copy.requestKey))!
  await ahead.close()

  const server = await startNode(t, { data: own, network: 'development', profile: 'chainweb', listenTimeout: 600 })
  const present = (await storedTransactions(server)).find((copy) => copy.block.canonical)!
  const at = await postRaw(`${pactBase(server, present.block.chain)}/api/v1/listen`, { listen: present.requestKey })
  t.equal(at.status, 200)
  t.same(
    json(at),
    json(await postRaw(`${pactBase(server, present.block.chain)}/api/v1/poll`, { requestKeys: [present.requestKey] }))[present.requestKey],
  )

  t.equal((await server.store.index.transaction(newer.requestKey)).copies.length, 0, 'not stored yet')
  const listening = postRaw(`${pactBase(server, newer.block.chain)}/api/v1/listen`, { listen: newer.requestKey })
  await until(() => blockWaitsOf(server) > 0, 'a request waiting for a block', 60_000)
  await fill(server.store, { blocks: 60, seed: 'listen' })
  const answer = await listening
  t.equal(answer.status, 200, 'answered once a block on the winning branch held it')
  t.equal(json(answer).reqKey, newer.requestKey)
  t.equal((json(answer).metaData as Record<string, unknown>).blockHash, newer.block.hash)
})

t.test('/listen times out with 504 and no body, as the node', async (t) => {
  const server = await startNode(t, { data: dir, network: 'development', profile: 'chainweb', listenTimeout: 0.3 })
  const answer = await postRaw(`${pactBase(server, 0)}/api/v1/listen`, { listen: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' })
  t.equal(answer.status, 504)
  t.equal(answer.body.length, 0)
})

t.test('a reorg moves a transaction from canonical to orphaned: /poll and /txs/tx stop answering its copy', async (t) => {
  const folder = await filledFolder(t, 'development', 240, 0)
  const server = await startNode(t, { data: folder, network: 'development', profile: 'chainweb' })
  const head = (await storedTransactions(server)).find((copy) => copy.block.canonical && copy.block.depth === 0)!
  const url = `${pactBase(server, head.block.chain)}/api/v1/poll`
  t.same(Object.keys(json(await postRaw(url, { requestKeys: [head.requestKey] }))), [head.requestKey], 'answered before')
  const txUrl = `${server.url}/txs/tx?requestkey=${head.requestKey}`
  t.equal(json(await send(txUrl)).blockHash as unknown, head.block.hash, "chainweb-data's /txs/tx: its copy before")
  await reorg(server.store, { chains: [head.block.chain], depth: 1, seed: 'pact-reorg' })
  const after = await server.store.index.transaction(head.requestKey, { chain: head.block.chain })
  t.ok(
    after.copies.some((copy) => copy.block.hash === head.block.hash && !copy.block.canonical),
    'its copy is orphaned now',
  )
  const winning = after.copies.find((copy) => copy.block.canonical)
  const answer = json(await postRaw(url, { requestKeys: [head.requestKey] }))
  if (winning === undefined) t.same(answer, {}, 'no copy on the winning branch: not answered')
  else t.equal((answer[head.requestKey]!.metaData as Record<string, unknown>).blockHash, winning.block.hash, 'answered from the new branch')
  t.not(JSON.stringify(answer).includes(head.block.hash), true, 'never from the orphan')
  const tx = await send(txUrl)
  if (winning === undefined) t.equal(tx.status, 404, '/txs/tx: not found once only an orphan holds it')
  else t.equal(json(tx).blockHash as unknown, winning.block.hash, '/txs/tx: the copy of the new branch')
})

t.test('--no-index: the Pact routes answer INDEX_DISABLED (501)', async (t) => {
  const folder = await filledFolder(t, 'development', 40, 0)
  const server = await startNode(t, { data: folder, network: 'development', profile: 'chainweb', index: false })
  for (const [endpoint, body] of [
    ['poll', { requestKeys: ['AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'] }],
    ['listen', { listen: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }],
  ] as const) {
    const answer = await postRaw(`${pactBase(server, 0)}/api/v1/${endpoint}`, body)
    t.equal(answer.status, 501, endpoint)
    t.match(answer.body.toString('utf8'), /--no-index/)
  }
})

async function storedTransactionsOf(store: RunningServer['store']): Promise<TransactionCopy[]> {
  return storedTransactions({ store } as RunningServer)
}

function blockWaitsOf(server: RunningServer): number {
  return server.listenWaits()
}
