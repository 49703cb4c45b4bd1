import { encodeHash } from '@weft/hash-text'
import type { Problem } from '@weft/types'
import t from 'tap'
import { chainBlocks, filledFolder, postRaw, send, startNode } from '../fixtures/node.js'

// One devnet-filled folder (20 chains, with forks) for the whole file: every test opens a node on it in turn.
const dir = await filledFolder(t, 'development', 200, 0.2)
const unknownHash = encodeHash(Buffer.alloc(32, 9))

for (const profile of ['spec', 'chainweb'] as const) {
  t.test(`${profile} profile: every malformed path and query gets the contract's status, never 500`, async (t) => {
    const server = await startNode(t, { data: dir, network: 'development', profile })
    const base = `${server.url}/${profile === 'spec' ? 'chain' : 'chainweb'}/0.0/development`
    const chain0 = await chainBlocks(server, 0)
    const chain5 = await chainBlocks(server, 5)
    const tip = chain0[chain0.length - 1]!.hash
    const malformed = profile === 'spec' ? 404 : 400
    const noMatch = profile === 'spec' ? 404 : 200
    const huge = `1${'0'.repeat(40)}`
    const getCases: Array<[string, number]> = [
      ['limit=-1', 400],
      [`limit=${huge}`, 200],
      ['limit=2.5', 400],
      ['limit=ten', 400],
      ['limit=', 400],
      ['limit=1&limit=2', 400],
      ['minheight=-1', 400],
      [`minheight=${huge}`, noMatch],
      ['minheight=0.5', 400],
      ['minheight=low', 400],
      ['maxheight=-1', malformed],
      [`maxheight=${huge}`, 200],
      ['maxheight=3.5', malformed],
      ['maxheight=high', malformed],
      ['next=garbage', malformed],
      ['next=inclusive:', malformed],
      [`next=inclusive:${tip.slice(0, 40)}`, malformed],
      [`next=INCLUSIVE:${tip}`, malformed],
      [`next=inclusive:${tip}=`, 200],
      [`next=inclusive:${unknownHash}`, 404],
      [`next=inclusive:${chain5[2]!.hash}`, 404],
    ]
    for (const [query, status] of getCases) {
      t.equal((await send(`${base}/chain/0/block?${query}`)).status, status, `GET block ?${query.slice(0, 60)}`)
      t.equal(
        (await postRaw(`${base}/chain/0/block/branch?${query}`, { upper: [tip] })).status,
        query.startsWith(`next=inclusive:${chain5[2]!.hash}`) ? 404 : status,
        `POST branch ?${query.slice(0, 60)}`,
      )
    }
    for (const chain of ['20', '-1', 'x', '1.0', '00x', '01', '+1']) {
      t.equal((await send(`${base}/chain/${chain}/block`)).status, 404, `chain ${chain}`)
      t.equal((await postRaw(`${base}/chain/${chain}/block/branch`, { upper: [tip] })).status, 404, `branch on chain ${chain}`)
    }
    t.equal(
      (await send(`${server.url}/${profile === 'spec' ? 'chain' : 'chainweb'}/0.0/mainnet01/chain/0/block`)).status,
      404,
      'unknown network',
    )
    t.equal(
      (await send(`${server.url}/${profile === 'spec' ? 'chain' : 'chainweb'}/0.1/development/chain/0/block`)).status,
      404,
      'unknown API version',
    )
  })
}

t.test('the first malformed parameter decides the answer, in the order limit, minheight, maxheight, next', async (t) => {
  const server = await startNode(t, { data: dir, network: 'development' })
  const base = `${server.url}/chain/0.0/development`
  const cases: Array<[string, number, string]> = [
    ['next=bad&minheight=x', 400, 'INVALID_QUERY'],
    ['next=bad&maxheight=x', 404, 'INVALID_MAXHEIGHT'],
    ['maxheight=x&limit=-1', 400, 'INVALID_QUERY'],
    ['other=1&next=bad', 404, 'INVALID_CURSOR'],
  ]
  for (const [query, status, code] of cases) {
    const response = await send(`${base}/chain/0/block?${query}`)
    t.same([response.status, (JSON.parse(response.body.toString()) as Problem).code], [status, code], query)
  }
})

t.test("a malformed parameter's detail says what was expected and what was received", async (t) => {
  const server = await startNode(t, { data: dir, network: 'development' })
  const base = `${server.url}/chain/0.0/development`
  const detail = async (path: string): Promise<string> => (JSON.parse((await send(`${base}${path}`)).body.toString()) as Problem).detail
  t.equal(await detail('/chain/0/block?limit=1&limit=2'), 'Expected query parameter limit to be a non-negative integer, received ["1","2"]')
  t.equal(
    await detail('/chain/0/block?next=Inclusive:x'),
    'Expected query parameter next to be inclusive:<hash> or exclusive:<hash>, received "Inclusive:x"',
  )
  t.equal(await detail('/cut?maxheight=abc'), 'Expected query parameter maxheight to be a non-negative integer, received "abc"')
})
