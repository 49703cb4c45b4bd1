import { get } from 'node:http'
import { fill, reorg } from '@weft/devnet'
import { type BlockEntries, deriveEntries } from '@weft/index'
import type { JoinedBlock, StoreEvent } from '@weft/store'
import { until } from '@weft/test-kit'
import type { PayloadWithOutputs } from '@weft/types'
import { Ajv2020 } from 'ajv/dist/2020.js'
import t from 'tap'
import { matchingData } from '../../src/streams/index-streams.js'
import { filledFolder, sendJson, startNode } from '../fixtures/node.js'

interface Frames {
  /** The whole frames received so far: event name, data, id. */
  frames(): Array<{ event: string; data: string; id: string }>
  readonly status: number
  destroy(): void
}

function open(url: string): Promise<Frames> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('error', () => {})
      const frames = () => {
        const text = Buffer.concat(chunks).toString('utf8')
        return text
          .slice(0, text.lastIndexOf('\n\n'))
          .split('\n\n')
          .filter((frame) => frame.startsWith('event:'))
          .map((frame) => {
            const [event, data, id] = frame.split('\n') as [string, string, string]
            return { event: event.slice(6), data: data.slice(5), id: id.slice(3) }
          })
      }
      resolve({ frames, status: response.statusCode ?? 0, destroy: () => response.destroy() })
    }).on('error', reject)
  })
}

const dir = await filledFolder(t, 'development', 40, 0.2)

t.test('filtered streams: events by name, an account transfers, one request key, from the blocks joining the winning branch', async (t) => {
  const server = await startNode(t, { data: dir, network: 'development', keepAlive: 0 })
  const base = `${server.url}/chain/0.0/development`
  // The oracle: every block that joined the cut, in order, and its entries.
  const joined: JoinedBlock[] = []
  server.store.subscribe((event: StoreEvent) => {
    if (event.type === 'cut') joined.push(...event.joined)
  })
  const transfers = await open(`${base}/event/updates?name=coin.TRANSFER`)
  const byModule = await open(`${base}/event/updates?module=coin`)
  t.equal(transfers.status, 200)
  await fill(server.store, { blocks: 80, forkRate: 0.3, seed: 'filtered 1' })
  await reorg(server.store, { chains: [1, 7], depth: 2, seed: 'filtered' })
  await fill(server.store, { blocks: 40, forkRate: 0.3, seed: 'filtered 2' })
  const entries: BlockEntries[] = []
  for (const { header } of joined) {
    const payload = JSON.parse((await server.store.getPayloadJson(header.payloadHash))!.toString('utf8')) as PayloadWithOutputs
    entries.push(deriveEntries({ chain: header.chainId, height: header.height, hash: header.hash, payload }))
  }
  const expected = (filter: Parameters<typeof matchingData>[0]) => entries.flatMap((block) => matchingData(filter, block))
  const named = expected({ kind: 'event', name: 'coin.TRANSFER', module: undefined })
  t.ok(named.length > 50, `${named.length} coin.TRANSFER events in ${joined.length} blocks that joined`)
  await until(() => transfers.frames().length === named.length, 'every named event on the transfers stream')
  t.same(
    transfers.frames().map((frame) => frame.data),
    named,
    'every coin.TRANSFER event of the joined blocks, in order',
  )
  t.ok(
    transfers.frames().every((frame) => frame.event === 'Event'),
    'named Event',
  )
  const coin = expected({ kind: 'event', name: undefined, module: 'coin' })
  await until(() => byModule.frames().length === coin.length, 'every event of the module')
  t.same(
    byModule.frames().map((frame) => frame.data),
    coin,
    'every event of module coin',
  )
  const ids = transfers.frames().map((frame) => frame.id)
  t.equal(new Set(ids).size, ids.length, 'an id of its own on each event')

  // An account's transfers and one request key, replayed from the feed's window (the first id of the feed).
  const epoch = ids[0]!.split('.')[0]
  const counts = new Map<string, number>()
  for (const block of entries) for (const transfer of block.transfers) counts.set(transfer.sender, (counts.get(transfer.sender) ?? 0) + 1)
  const account = [...counts].filter(([name]) => name !== '').sort((a, b) => b[1] - a[1])[0]![0]
  const mine = expected({ kind: 'transfer', account, token: undefined })
  const ofAccount = await open(`${base}/transfer/updates?account=${encodeURIComponent(account)}&since=${epoch}.0`)
  await until(() => ofAccount.frames().length === mine.length, 'every transfer of the account')
  t.same(
    ofAccount.frames().map((frame) => frame.data),
    mine,
    `the ${mine.length} transfers of ${account}, replayed from the start of the window`,
  )
  t.ok(
    mine.every((data) => (JSON.parse(data) as { amount: string }).amount.length > 0),
    'amounts as exact decimal text',
  )
  const requestKey = entries.find((block) => block.transactions.length > 0)!.transactions[0]!.requestKey
  const copies = expected({ kind: 'transaction', requestKey })
  const ofKey = await open(`${base}/transaction/updates?requestKey=${requestKey}&since=${epoch}.0`)
  await until(() => ofKey.frames().length === copies.length, 'every copy of the request key')
  t.same(
    ofKey.frames().map((frame) => frame.data),
    copies,
    'the request key where it joined the winning branch',
  )

  // Resuming in the middle of a block's frames: after the third frame, the rest.
  const third = transfers.frames()[2]!
  const resumed = await open(`${base}/event/updates?name=coin.TRANSFER&since=${third.id}`)
  await until(() => resumed.frames().length === named.length - 3, 'the rest of the named events on the resumed stream')
  t.same(
    resumed.frames().map((frame) => frame.data),
    named.slice(3),
    'resumed after the third event',
  )
  const unknown = await open(`${base}/event/updates?name=coin.TRANSFER&since=0123456789abcdef.1.0`)
  await until(() => unknown.frames().length === 1, 'one event on the stream of an unknown id')
  t.equal(unknown.frames()[0]!.event, 'ResumeFromPage')
  // Each event's data matches its schema in the node's OpenAPI document.
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  ajv.addSchema((await sendJson<object>(`${server.url}/openapi.json`)).json, 'doc')
  for (const [schema, stream] of [
    ['EventUpdate', transfers],
    ['TransferUpdate', ofAccount],
    ['TransactionUpdate', ofKey],
  ] as const) {
    const validate = ajv.compile({ $ref: `doc#/components/schemas/${schema}` })
    const failures = stream.frames().filter((frame) => !validate(JSON.parse(frame.data)))
    t.same(failures, [], `every ${schema} matches the document's schema`)
  }
  for (const stream of [transfers, byModule, ofAccount, ofKey, resumed, unknown]) stream.destroy()
})

t.test('filtered streams refuse what they cannot follow: 400 INVALID_QUERY', async (t) => {
  const server = await startNode(t, { data: dir, network: 'development', keepAlive: 0 })
  const base = `${server.url}/chain/0.0/development`
  for (const [path, message] of [
    ['transaction/updates', /requestKey to be a request key/],
    ['transaction/updates?requestKey=abc', /requestKey to be a request key/],
    ['transfer/updates', /account/],
    ['transfer/updates?account=a&account=b', /account once/],
    ['event/updates', /exactly one of/],
    ['event/updates?name=coin.TRANSFER&module=coin', /exactly one of/],
    ['event/updates?module=coin&depth=x', /depth/],
  ] as const) {
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      get(`${base}/${path}`, { agent: false }, (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }))
      }).on('error', reject)
    })
    t.equal(answer.status, 400, path)
    t.match(answer.body, /"code":"INVALID_QUERY"/)
    t.match(answer.body, message)
  }
})
