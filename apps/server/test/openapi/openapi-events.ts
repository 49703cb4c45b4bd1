import { type Block, genesisBlock, getNetwork } from '@weft/block'
import { createAccountPool, createRandom, mineBlock, syntheticPayload } from '@weft/devnet'
import { until } from '@weft/test-kit'
import { Ajv2020 } from 'ajv/dist/2020.js'
import t from 'tap'
import { sendJson, startNode } from '../fixtures/node.js'
import { subscribe } from '../fixtures/streams.js'

type Json = Record<string, unknown>
interface StreamContent {
  schema: Json
  'x-itemSchema': { $ref: string }
  example?: string
}

interface StreamDocument {
  paths: Record<string, { get: { responses: Record<string, { content: Record<string, StreamContent> }> } }>
  components: { schemas: Record<string, Json> }
}

const network = getNetwork('mainnet01')

// A valid block of mainnet01's chain 0 at height 1 (chains 0-9 start at difficulty 1).
function nextBlock(): Block {
  const parent = genesisBlock(network, 0).header
  const random = createRandom('events')
  const creationTime = parent.creationTime + 30_000_000
  const payload = syntheticPayload(random, createAccountPool(random), {
    network: network.name,
    chainId: 0,
    height: 1,
    parent: parent.hash,
    creationTime,
  })
  const adjacentParents = parent.adjacents.map(([chain]) => genesisBlock(network, chain).header)
  return mineBlock({ parent, adjacentParents, payload, creationTime })
}

// The frames of an event stream's text: each `event:<name>` and one `data:<text>` line.
function framesOf(text: string): Array<{ event: string; data: string }> {
  return text
    .split('\n\n')
    .filter((frame) => frame.startsWith('event:'))
    .map((frame) => {
      const [event = '', data = ''] = frame.split('\n')
      return { event: event.slice('event:'.length), data: data.slice('data:'.length) }
    })
}

for (const profile of ['spec', 'chainweb'] as const) {
  t.test(`${profile} profile: the document describes each stream's events, and the events the node sends match it`, async (t) => {
    const server = await startNode(t, { data: t.testdir(), network: 'mainnet01', profile, keepAlive: 0 })
    const base = `/${profile === 'spec' ? 'chain' : 'chainweb'}/0.0/mainnet01`
    const doc = (await sendJson<StreamDocument>(`${server.url}/openapi.json`)).json
    const ajv = new Ajv2020({ strict: false, allErrors: true })
    ajv.addSchema(doc, 'doc')
    const resolve = (ref: string): Json => {
      const name = ref.split('/').pop() ?? ''
      return doc.components.schemas[name] ?? {}
    }
    const contentOf = (path: string): StreamContent => doc.paths[`${base}${path}`]!.get.responses['200']!.content['text/event-stream']!
    const ownNames =
      profile === 'spec' ? ['HeaderUpdateEvent', 'BlockUpdateEvent'] : ['ChainwebHeaderUpdateEvent', 'ChainwebBlockUpdateEvent']
    t.same(
      ['/header/updates', '/block/updates'].map((path) => contentOf(path)['x-itemSchema']?.$ref.split('/').pop()),
      ownNames,
      "each stream names its profile's event schema",
    )
    // An event: its object against the item schema, its data's JSON against the item's contentSchema.
    const check = (path: string, frame: { event: string; data: string }, label: string) => {
      const ref = contentOf(path)['x-itemSchema'].$ref.replace('#/components', 'doc#/components')
      const item = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref })
      t.ok(item(frame), `${label}: the event ${ajv.errorsText(item.errors)}`)
      const dataRef = ((resolve(ref).properties as Json).data as { contentSchema: { $ref: string } }).contentSchema.$ref
      const data =
        ajv.getSchema(dataRef.replace('#/components', 'doc#/components')) ??
        ajv.compile({ $ref: dataRef.replace('#/components', 'doc#/components') })
      t.ok(data(JSON.parse(frame.data)), `${label}: its data ${ajv.errorsText(data.errors)}`)
      return JSON.parse(frame.data) as Json
    }
    const example = framesOf(contentOf('/header/updates').example ?? '')
    t.equal(example.length, 1, 'the header stream has an example event')
    check('/header/updates', example[0]!, 'the example')
    const dataRef = `doc#/components/schemas/${profile === 'spec' ? 'HeaderUpdate' : 'ChainwebHeaderUpdate'}`
    const wrong = { ...(JSON.parse(example[0]!.data) as Json), txCount: -1 }
    t.notOk(ajv.getSchema(dataRef)?.(wrong), 'a negative txCount does not match the data schema')

    const headers = await subscribe(`${server.url}${base}/header/updates`)
    const blocks = await subscribe(`${server.url}${base}/block/updates`)
    t.teardown(() => {
      headers.destroy()
      blocks.destroy()
    })
    await until(() => server.eventClients().header === 1 && server.eventClients().block === 1, 'both streams open')
    const block = nextBlock()
    t.same(await server.store.insert(block), { inserted: true })
    await until(() => framesOf(headers.received()).length === 1 && framesOf(blocks.received()).length === 1, 'one frame on each stream')
    const header = check('/header/updates', framesOf(headers.received())[0]!, '/header/updates')
    const full = check('/block/updates', framesOf(blocks.received())[0]!, '/block/updates')
    t.equal((header.header as Json).hash, block.header.hash.toString('base64url'), 'the event is the block inserted')
    t.ok(full.payloadWithOutputs, 'a block event carries the payload with outputs')
    t.notOk(
      ajv.getSchema(`doc#/components/schemas/${profile === 'spec' ? 'BlockUpdate' : 'ChainwebBlockUpdate'}`)?.(header),
      'a header event lacks what a block event has',
    )
  })
}
