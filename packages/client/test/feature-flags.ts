import { decodeHeader } from '@weft/block'
import { fill } from '@weft/devnet'
import { encodeHash } from '@weft/hash-text'
import { eventually } from '@weft/test-kit'
import t from 'tap'
import { type AnyFullBlock, type AnyHeaderUpdate, createClient } from '../src/index.js'
import { filledNode } from './fixtures/nodes.js'

// Real featureFlags exceed what a double holds exactly: since release 3.2 their high 32 bits hold
// fork votes, and mainnet01's first 530,500 blocks carry the miner's nonce there. A mainnet01 devnet
// writes random flags on those heights, as its miners did, most of them above 2^53 (1,000 blocks
// are 100 heights of each of its first 10 chains).
const doubleLimit = 2n ** 53n

for (const profile of ['spec', 'chainweb'] as const) {
  t.test(`${profile} profile: featureFlags above 2^53 come back exactly from the library`, async (t) => {
    const { server } = await filledNode(t, { blocks: 1000, forkRate: 0, profile, network: 'mainnet01' })
    const stored = async (hash: string): Promise<bigint | undefined> =>
      (await server.store.getHeader(Buffer.from(hash, 'base64url')))?.featureFlags
    const chain0 = new Map<string, bigint>()
    for await (const item of server.store.range({ chain: 0 }))
      chain0.set(encodeHash(item.hash), decodeHeader(item.headerBinary).featureFlags)
    t.ok(
      [...chain0.values()].some((flags) => flags > doubleLimit),
      'the devnet wrote featureFlags above 2^53',
    )

    const client = createClient({ url: server.url, validate: true })
    const paged = new Map<string, bigint>()
    for await (const block of client.blocks(0)) paged.set(block.header.hash, BigInt(block.header.featureFlags))
    t.same(paged, chain0, 'GET block pages, checked against the schemas')

    const head = (await client.heads([0])).get(0)!
    t.equal(BigInt(head.featureFlags), await stored(head.hash), 'heads')
    const branch: AnyFullBlock[] = []
    for await (const block of client.branch(0, { upper: [head.hash] }, { limit: 10 })) branch.push(block)
    t.ok(branch.length === chain0.size, 'the branch below the head holds the whole chain')
    t.ok(
      branch.every((block) => BigInt(block.header.featureFlags) === chain0.get(block.header.hash)),
      'POST branch pages',
    )

    const updates: AnyHeaderUpdate[] = []
    const controller = new AbortController()
    const reading = (async () => {
      for await (const update of client.headerUpdates({ signal: controller.signal })) updates.push(update)
    })()
    t.ok(await eventually(() => server.eventClients().header === 1), 'subscribed')
    await fill(server.store, { blocks: 20, forkRate: 0, seed: 'more flags' })
    t.ok(await eventually(() => updates.length === 20), 'every insert arrives')
    let exact = 0
    for (const { header } of updates) if (BigInt(header.featureFlags) === (await stored(header.hash))) exact += 1
    t.equal(exact, 20, 'header updates')
    t.ok(
      updates.some(({ header }) => BigInt(header.featureFlags) > doubleLimit),
      'updates above 2^53 among them',
    )
    controller.abort()
    await reading
  })
}
