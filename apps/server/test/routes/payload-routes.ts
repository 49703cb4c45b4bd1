import { encodeHash } from '@weft/hash-text'
import type { Payload, PayloadWithOutputs, Problem } from '@weft/types'
import t from 'tap'
import { filledFolder, postJson, send, sendJson, startNode } from '../fixtures/node.js'

// One devnet-filled folder (20 chains, with forks) for the whole file: every test opens a node on it in turn.
const dir = await filledFolder(t, 'development', 200, 0.2)

for (const profile of ['spec', 'chainweb'] as const) {
  t.test(`${profile} profile: payloads are served node-wide, with and without outputs`, async (t) => {
    const server = await startNode(t, { data: dir, network: 'development', profile })
    const base = `${server.url}/${profile === 'spec' ? 'chain' : 'chainweb'}/0.0/development`
    const heads = [...server.store.cut().values()]
    const payloads = await Promise.all(
      heads.map(async (head) => JSON.parse((await server.store.getPayloadJson(head.payloadHash))!.toString()) as PayloadWithOutputs),
    )
    const first = heads[3]!
    const payloadHash = encodeHash(first.payloadHash)
    const outputs = await sendJson<PayloadWithOutputs>(`${base}/chain/${first.chainId}/payload/${payloadHash}/outputs`)
    t.same(outputs.json, payloads[3])
    t.same(Object.keys(outputs.json), ['transactions', 'minerData', 'transactionsHash', 'outputsHash', 'payloadHash', 'coinbase'])
    const plain = await sendJson<Payload>(`${base}/chain/${(first.chainId + 7) % 20}/payload/${payloadHash}`)
    t.equal(plain.status, 200, 'whatever chain the path names')
    t.same(plain.json, {
      transactions: payloads[3]!.transactions.map((pair) => pair[0]),
      minerData: payloads[3]!.minerData,
      transactionsHash: payloads[3]!.transactionsHash,
      outputsHash: payloads[3]!.outputsHash,
      payloadHash,
    })
    const unknown = encodeHash(Buffer.alloc(32, 3))
    const missing = await send(`${base}/chain/0/payload/${unknown}`)
    t.equal(missing.status, 404)
    if (profile === 'chainweb') t.equal(missing.body.toString(), JSON.stringify({ key: unknown, reason: 'key not found' }))
    else t.equal((JSON.parse(missing.body.toString()) as Problem).code, 'PAYLOAD_NOT_FOUND')
    t.equal((await send(`${base}/chain/0/payload/${unknown}/outputs`)).status, 404)
    t.equal((await send(`${base}/chain/0/payload/xyz`)).status, 400)
    t.equal((await send(`${base}/chain/20/payload/${payloadHash}`)).status, 404)

    const hashes = heads.map((head) => encodeHash(head.payloadHash))
    const batch = await postJson(`${base}/chain/0/payload/outputs/batch`, [hashes[5], unknown, hashes[1], hashes[2]])
    t.same(batch.json, [payloads[5], payloads[1], payloads[2]], 'request order, unknown left out')
    const objectBody = await postJson<Payload[]>(`${base}/chain/0/payload/batch`, { heights: [1, 2], hashes: [hashes[0], hashes[4]] })
    t.same(
      objectBody.json.map((payload) => payload.payloadHash),
      [hashes[0], hashes[4]],
    )
    t.notOk('coinbase' in objectBody.json[0]!)
    const capped = await postJson(`${base}/chain/0/payload/outputs/batch`, [...Array.from({ length: 1000 }, () => unknown), hashes[0]])
    t.same(capped.json, [], 'only the first 1000 entries are served')
    t.equal((await postJson(`${base}/chain/0/payload/batch`, { hashes: 'x' })).status, 400)
    t.equal((await postJson(`${base}/chain/0/payload/batch`, [1])).status, 400)
    t.equal((await postJson(`${base}/chain/0/payload/batch`, ['short'])).status, 400)
    t.equal((await postJson(`${base}/chain/0/payload/batch`, { heights: 'x', hashes: [hashes[0]] })).status, 400, 'heights are an array')
    t.equal(
      (await postJson(`${base}/chain/0/payload/batch`, [...Array.from({ length: 1000 }, () => unknown), 'short'])).status,
      400,
      'entries past the first 1000 are checked too, though not served',
    )
    t.equal((await send(`${base}/chain/0/payload/batch`, { method: 'POST', body: '[]' })).status, 415)
  })
}
