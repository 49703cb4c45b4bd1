import { type Block, genesisBlock, getNetwork, inChainwebNodeOrder } from '@weft/block'
import { BraidMiner, createProducer, createRandom, loadWindows } from '@weft/devnet'
import type { StoreEvent } from '@weft/store'
import { until } from '@weft/test-kit'
import type { Cut, NodeInfo } from '@weft/types'
import t from 'tap'
import { sendJson, startNode } from './fixtures/node.js'
import { announcedHashes, subscribe } from './fixtures/streams.js'

const network = getNetwork('recap-development')
const range = (from: number, to: number): number[] => Array.from({ length: to - from }, (_, i) => from + i)
const genesisHash = (chain: number): string => genesisBlock(network, chain).header.hash.toString('base64url')

for (const profile of ['spec', 'chainweb'] as const) {
  t.test(`${profile} profile: a recap-development devnet node passes its graph transition at 60`, async (t) => {
    const server = await startNode(t, { data: t.testdir(), network: 'recap-development', profile, keepAlive: 0 })
    const base = `${server.url}/${profile === 'spec' ? 'chain' : 'chainweb'}/0.0/recap-development`
    const headerStream = await subscribe(`${base}/header/updates`)
    const blockStream = await subscribe(`${base}/block/updates`)
    await until(() => server.eventClients().header === 1 && server.eventClients().block === 1, 'both streams open')
    const inserted: string[] = []
    const joined: string[] = []
    server.store.subscribe((event: StoreEvent) => {
      if (event.type === 'inserted') inserted.push(event.header.hash.toString('base64url'))
      else joined.push(...event.joined.map((block) => block.header.hash.toString('base64url')))
    })
    const cut = async () => (await sendJson<Cut>(`${base}/cut`)).json
    const info = async () => (await sendJson<NodeInfo>(`${server.url}/info`)).json
    const chainsOf = (body: Cut) =>
      Object.keys(body.hashes)
        .map(Number)
        .sort((a, b) => a - b)

    t.same([chainsOf(await cut()), (await info()).nodeNumberOfChains], [range(0, 10), 10], 'genesis: ten chains')
    // Mined block by block, so that the node can be asked at each step of the transition.
    const miner = new BraidMiner(network, await loadWindows(server.store), {
      random: createRandom(profile),
      forkRate: 0,
    })
    const mineUpTo = (height: number, chains: number[]): Block[] => {
      const blocks: Block[] = []
      for (;;) {
        const chain = miner.ready().find((c) => chains.includes(c) && miner.head(c)!.height < height)
        if (chain === undefined) return blocks
        blocks.push(...miner.mine(chain, false))
      }
    }
    await server.store.insertMany(mineUpTo(59, range(0, 10)))
    await server.store.insertMany(mineUpTo(60, [0]))
    const before = await cut()
    t.same(chainsOf(before), range(0, 10), 'one old chain at 60, the others at 59: the cut keeps ten chains')
    t.same(
      [(await info()).nodeNumberOfChains, (await info()).nodeChains.length],
      [20, 20],
      '/info lists the graph at the highest head: twenty',
    )
    for (const chain of range(1, 10)) await server.store.insertMany(mineUpTo(60, [chain]))
    const after = await cut()
    t.same(chainsOf(after), range(0, 20), 'every old chain at 60: twenty chains')
    t.same(
      range(10, 20).map((chain) => after.hashes[String(chain)]),
      range(10, 20).map((chain) => ({ height: 60, hash: genesisHash(chain) })),
      'chains 10-19 enter with their genesis blocks',
    )
    const limited = (await sendJson<Cut>(`${base}/cut?maxheight=590`)).json
    t.same([chainsOf(limited), limited.height], [range(0, 10), 590], 'limited below the transition: ten chains at 59')

    const producer = createProducer(server.store, { blockDelay: 0.01, seed: profile })
    producer.start()
    await until(async () => Object.values((await cut()).hashes).every((head) => head.height >= 62), 'every chain at height 62')
    await producer.stop()
    const final = await cut()
    t.ok(
      Object.values(final.hashes).every((head) => head.height > 60),
      'every chain passed 60',
    )
    t.same((await info()).nodeChains, profile === 'spec' ? range(0, 20).map(String) : inChainwebNodeOrder(range(0, 20)).map(String))

    const announced = profile === 'spec' ? inserted : joined
    await until(
      () => headerStream.data().length === announced.length && blockStream.data().length === announced.length,
      'every announcement on both streams',
    )
    t.same(announcedHashes(headerStream), announced, 'the header stream announced what the profile announces, in order')
    t.same(announcedHashes(blockStream), announced, 'so did the block stream')
    const genesis = range(10, 20).map(genesisHash)
    if (profile === 'spec')
      t.notOk(
        genesis.some((hash) => announced.includes(hash)),
        'genesis blocks were stored before: not inserted now',
      )
    else {
      t.ok(
        genesis.every((hash) => announced.filter((h) => h === hash).length === 1),
        'the chainweb streams announce the new chains’ genesis blocks once, as they join the cut',
      )
      t.equal(new Set(announced).size, announced.length, 'each block once')
      const position = new Map(announced.map((hash, index) => [hash, index]))
      const problems: string[] = []
      for (const text of headerStream.data()) {
        const { header } = JSON.parse(text) as { header: { hash: string; parent: string; adjacents: Record<string, string> } }
        for (const before of [header.parent, ...Object.values(header.adjacents)]) {
          const at = position.get(before)
          if (at !== undefined && at > position.get(header.hash)!) problems.push(`${header.hash} before ${before}`)
        }
      }
      t.same(problems, [], 'ancestors and named neighbours first')
    }
    headerStream.destroy()
    blockStream.destroy()
  })
}

t.test('weft-server on recap-development runs the devnet by default', async (t) => {
  const server = await startNode(t, { data: t.testdir(), network: 'recap-development', devnet: undefined, blockDelay: 0.01 })
  t.equal(server.config.devnet, true)
  await until(() => [...server.store.cut().values()].every((head) => head.height >= 2), 'every chain at height 2')
  t.pass('every chain grows from its hard genesis block at the easy target')
})
