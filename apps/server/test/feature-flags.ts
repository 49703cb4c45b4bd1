import { type Block, decodeHeader, genesisBlock, getNetwork, headerFromJsonText, headerToJsonText, parseJsonExact } from '@weft/block'
import { createAccountPool, createRandom, mineBlock, syntheticPayload } from '@weft/devnet'
import { until } from '@weft/test-kit'
import t from 'tap'
import { alphabeticalHeaderJson } from '../src/streams/event-data.js'
import { postRaw, send, startNode } from './fixtures/node.js'
import { subscribe } from './fixtures/streams.js'

const FLAGS = (1n << 60n) + 7n
const network = getNetwork('mainnet01')

// A block of mainnet01's chain 0 at height 1 whose featureFlags are 2^60 + 7: far beyond what a
// double holds exactly. The real node checks no feature flags below 530,500 (its miners wrote part
// of their nonce there), and chains 0-9 start at difficulty 1, so the block is valid.
function flaggedBlock(): Block {
  const parent = genesisBlock(network, 0).header
  const random = createRandom('flags')
  const creationTime = parent.creationTime + 30_000_000
  const payload = syntheticPayload(random, createAccountPool(random), {
    network: network.name,
    chainId: 0,
    height: 1,
    parent: parent.hash,
    creationTime,
  })
  const adjacentParents = parent.adjacents.map(([chain]) => genesisBlock(network, chain).header)
  return mineBlock({ parent, adjacentParents, payload, creationTime, featureFlags: FLAGS })
}

for (const profile of ['spec', 'chainweb'] as const) {
  t.test(`${profile} profile: featureFlags 2^60 + 7 come back exactly from every encoding and endpoint`, async (t) => {
    const server = await startNode(t, { data: t.testdir(), network: 'mainnet01', profile, keepAlive: 0 })
    const base = `${server.url}/${profile === 'spec' ? 'chain' : 'chainweb'}/0.0/mainnet01/chain/0`
    const streams = `${server.url}/${profile === 'spec' ? 'chain' : 'chainweb'}/0.0/mainnet01`
    const headerStream = await subscribe(`${streams}/header/updates`)
    const blockStream = await subscribe(`${streams}/block/updates`)
    await until(() => server.eventClients().header === 1 && server.eventClients().block === 1, 'both streams open')
    const block = flaggedBlock()
    t.same(await server.store.insert(block), { inserted: true }, 'hashed, validated and stored')
    const { header } = block
    const hash = header.hash.toString('base64url')
    const json = headerToJsonText(header, profile)
    t.match(json, /"featureFlags":1152921504606846983,/)
    const exact = (text: string, label: string) => t.equal(headerFromJsonText(text).featureFlags, FLAGS, label)

    const text = async (path: string, options: Parameters<typeof send>[1] = {}) => (await send(`${base}${path}`, options)).body.toString()
    const objects = { accept: 'application/json;blockheader-encoding=object' }
    t.ok((await text('/block?minheight=1')).includes(json), 'block page: the header text as stored')
    t.ok((await text('/header?minheight=1', { headers: objects })).includes(json), 'header page, objects')
    t.ok((await text(`/header/${hash}`, { headers: objects })).includes(json), 'one header, object')
    const branchBody = { upper: [hash] }
    const branch = async (path: string, headers: Record<string, string> = {}) =>
      (await postRaw(`${base}${path}`, branchBody, true, headers)).body.toString()
    t.ok((await branch('/block/branch')).includes(json), 'block branch')
    t.ok((await branch('/header/branch', objects)).includes(json), 'header branch, objects')
    exact(
      JSON.stringify((parseJsonExact(await text('/block?minheight=1')) as { items: Array<{ header: unknown }> }).items[0]!.header),
      'block page parsed exactly',
    )

    const binaries: Buffer[] = [
      ...(JSON.parse(await text('/header?minheight=1')) as { items: string[] }).items,
      ...(JSON.parse(await branch('/header/branch')) as { items: string[] }).items.slice(0, 1),
      JSON.parse(await text(`/header/${hash}`)) as string,
    ].map((item) => Buffer.from(item, 'base64url'))
    binaries.push((await send(`${base}/header/${hash}`, { headers: { accept: 'application/octet-stream' } })).body)
    t.same(
      binaries.map((bytes) => decodeHeader(bytes).featureFlags),
      [FLAGS, FLAGS, FLAGS, FLAGS],
      'binary in header pages, branches, base64url and octet-stream',
    )
    t.ok(
      binaries.every((bytes) => bytes.readBigUInt64LE(0) === FLAGS),
      'first eight bytes, little-endian',
    )

    await until(() => headerStream.data().length === 1 && blockStream.data().length === 1, 'one event on each stream')
    const eventJson = profile === 'spec' ? json : alphabeticalHeaderJson(header)
    t.match(eventJson, /"featureFlags":1152921504606846983,/)
    for (const [stream, label] of [
      [headerStream, 'header stream'],
      [blockStream, 'block stream'],
    ] as const) {
      const [data] = stream.data()
      t.ok(data!.startsWith(`{"header":${eventJson},`), `${label}: the header text`)
      exact(JSON.stringify((parseJsonExact(data!) as { header: unknown }).header), `${label}: parsed exactly`)
      stream.destroy()
    }
  })
}
