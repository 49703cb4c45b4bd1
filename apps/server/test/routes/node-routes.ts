import { createHash } from 'node:crypto'
import { decodeU256, getNetwork, inChainwebNodeOrder } from '@weft/block'
import type { ChainwebBlockPage, Cut, NodeInfo } from '@weft/types'
import t from 'tap'
import { nodeVersion } from '../../src/index.js'
import { type BlockRef, chainBlocks, filledFolder, send, sendJson, startNode } from '../fixtures/node.js'
import { cutAndInfo } from '../fixtures/vectors.js'

// One devnet-filled folder (20 chains, with forks) for the whole file: every test opens a node on it in turn.
const dir = await filledFolder(t, 'development', 200, 0.2)

t.test('health-check answers its fixed text', async (t) => {
  const server = await startNode(t, { data: dir, network: 'development' })
  const response = await send(`${server.url}/health-check`)
  t.same(
    [response.status, response.headers['content-type'], response.body.toString()],
    [200, 'text/plain;charset=utf-8', 'Health check OK.\n'],
  )
})

t.test("info carries the network facts in the profile's units", async (t) => {
  const server = await startNode(t, { data: dir, network: 'development', serviceDate: '2030-01-02T00:00:00Z' })
  const info = await sendJson<NodeInfo>(`${server.url}/info`)
  t.equal(info.headers['content-type'], 'application/json;charset=utf-8')
  const chains = Array.from({ length: 20 }, (_, i) => String(i))
  t.same(Object.keys(info.json), [
    'nodeApiVersion',
    'nodeBlockDelay',
    'nodeChains',
    'nodeGenesisHeights',
    'nodeGraphHistory',
    'nodeHistoricalChains',
    'nodeLatestBehaviorHeight',
    'nodeNumberOfChains',
    'nodePackageVersion',
    'nodeServiceDate',
    'nodeVersion',
  ])
  t.same(info.json.nodeChains, chains)
  t.equal(info.json.nodeNumberOfChains, 20)
  t.same(
    info.json.nodeGenesisHeights,
    chains.map((chain) => [chain, 0]),
  )
  t.equal(info.json.nodeGraphHistory.length, 1)
  t.same(info.json.nodeGraphHistory[0]![1][7], [7, [2, 5, 9]])
  t.same(info.json.nodeHistoricalChains, info.json.nodeGraphHistory)
  t.same(
    [info.json.nodeApiVersion, info.json.nodeVersion, info.json.nodePackageVersion, info.json.nodeServiceDate],
    ['0.0', 'development', nodeVersion, '2030-01-02T00:00:00Z'],
  )
  const defaulted = await startNode(t, { data: t.testdir(), network: 'test-singleton', profile: 'chainweb', emulate: '2.32' })
  const singleton = await sendJson<NodeInfo>(`${defaulted.url}/info`)
  t.same([singleton.json.nodeChains, singleton.json.nodeBlockDelay, singleton.json.nodeNumberOfChains], [['0'], 1_000_000, 1])
  t.match(singleton.json.nodeServiceDate, /^\d{4}-\d\d-\d\dT00:00:00\.000Z$/, 'a default service date')
  t.ok(Date.parse(singleton.json.nodeServiceDate ?? '') > Date.now(), 'in the future')
  t.equal(singleton.headers['x-chainweb-node-version'], '2.32')
  t.same([singleton.json.nodePackageVersion, singleton.json.nodeLatestBehaviorHeight], ['2.32', 1])
})

t.test("a node on its genesis cut answers /cut, /cut?maxheight=0 and /info as the real node's text", async (t) => {
  for (const network of ['mainnet01', 'testnet06'] as const) {
    const server = await startNode(t, { data: t.testdir(), network, profile: 'chainweb' })
    const base = `${server.url}/chainweb/0.0/${network}`
    const vectors = cutAndInfo[network]
    for (const path of [`${base}/cut`, `${base}/cut?maxheight=0`]) {
      const response = await send(path)
      t.same([response.status, response.headers['content-type']], [200, 'application/json;charset=utf-8'])
      t.equal(response.body.toString(), vectors.genesisCut, `${network} ${path.slice(base.length)}`)
    }
    const info = await send(`${server.url}/info`)
    t.equal(info.body.toString(), vectors.info.genesisCut, `${network} /info`)
    t.equal(info.headers['x-chainweb-node-version'], '3.2')
    await server.close()
  }
})

t.test('mainnet01 starts from its real genesis blocks, and info follows its graph history', async (t) => {
  const folders = t.testdir({ mainnet: {}, testnet: {} })
  const server = await startNode(t, { data: `${folders}/mainnet`, network: 'mainnet01' })
  const info = await sendJson<NodeInfo>(`${server.url}/info`)
  t.same(
    info.json.nodeGraphHistory.map((entry) => entry[0]),
    [852054, 0],
  )
  t.equal(info.json.nodeChains.length, 10, 'the genesis cut stands below the transition: the Petersen graph')
  t.same(info.json.nodeGenesisHeights[10], ['10', 852054])
  const cut = await sendJson<Cut>(`${server.url}/chain/0.0/mainnet01/cut`)
  t.equal(Object.keys(cut.json.hashes).length, 10, 'chains 10-19 join the cut only at the transition')
  t.equal(cut.json.hashes['0']!.hash, (await chainBlocks(server, 0))[0]!.hash)
  const limited = await sendJson<Cut>(`${server.url}/chain/0.0/mainnet01/cut?maxheight=100`)
  t.same(
    Object.keys(limited.json.hashes),
    ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'],
    'chains whose genesis lies above the cut height are left out',
  )
  t.equal(limited.json.height, 0)
  const testnet = await startNode(t, { data: `${folders}/testnet`, network: 'testnet04', profile: 'chainweb' })
  const genesis = await sendJson<ChainwebBlockPage>(`${testnet.url}/chainweb/0.0/testnet04/chain/0/block`)
  t.equal(genesis.json.items.length, 1)
  t.equal(genesis.json.items[0]!.header.chainwebVersion, 'testnet04')
})

function ancestorAt(blocks: ReadonlyMap<string, BlockRef>, hash: string, height: number): BlockRef {
  let at = blocks.get(hash)!
  while (at.height > height) at = blocks.get(at.parent)!
  return at
}

t.test('cut lists the best heads; maxheight replaces them by their ancestors', async (t) => {
  for (const profile of ['spec', 'chainweb'] as const) {
    const server = await startNode(t, { data: dir, network: 'development', profile })
    const url = `${server.url}/${profile === 'spec' ? 'chain' : 'chainweb'}/0.0/development/cut`
    const cut = await sendJson<Cut>(url)
    t.same(Object.keys(cut.json), ['hashes', 'origin', 'weight', 'height', 'instance', 'id'])
    const heads = server.store.cut()
    const chains = [...heads.keys()].sort((a, b) => a - b)
    t.same(Object.keys(cut.json.hashes), chains.map(String))
    const listedChains = [...(await send(url)).body.toString().matchAll(/"(\d+)":\{"height"/g)].map((match) => Number(match[1]))
    t.same(listedChains, profile === 'spec' ? chains : inChainwebNodeOrder(chains), `${profile}: chains in the profile's order`)
    for (const chain of chains)
      t.same(cut.json.hashes[String(chain)], { height: heads.get(chain)!.height, hash: heads.get(chain)!.hash.toString('base64url') })
    t.equal(cut.json.origin, null)
    t.equal(cut.json.instance, 'development')
    t.equal(
      cut.json.height,
      chains.reduce((sum, chain) => sum + heads.get(chain)!.height, 0),
    )
    t.equal(
      decodeU256(Buffer.from(cut.json.weight, 'base64url')),
      chains.reduce((sum, chain) => sum + heads.get(chain)!.weight, 0n),
    )
    // The id is over the heads in the order `hashes` lists them: ascending (spec) or chainweb-node's.
    const listed = profile === 'spec' ? chains : inChainwebNodeOrder(chains)
    t.equal(
      cut.json.id,
      createHash('sha512-256')
        .update(Buffer.concat(listed.map((chain) => heads.get(chain)!.hash)))
        .digest('base64url'),
    )

    const maxheight = 100
    const limited = await sendJson<Cut>(`${url}?maxheight=${maxheight}`)
    const target = Math.floor(maxheight / getNetwork('development').graphs[0]!.graph.size)
    for (const chain of chains) {
      const blocks = new Map((await chainBlocks(server, chain)).map((block) => [block.hash, block]))
      const expected = ancestorAt(blocks, heads.get(chain)!.hash.toString('base64url'), target)
      t.same(limited.json.hashes[String(chain)], { height: expected.height, hash: expected.hash }, `chain ${chain} at height ${target}`)
    }
    t.equal(limited.json.height, target * 20)
    t.same((await sendJson(`${url}?maxheight=100000000`)).json, cut.json, 'a cut height above the heads changes nothing')
    t.equal((await send(`${url}?maxheight=-5`)).status, 400)
    t.equal((await send(`${url}?maxheight=abc`)).status, 400)
    await server.close()
  }
})
