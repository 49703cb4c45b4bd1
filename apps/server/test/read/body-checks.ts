import { encodeHash } from '@weft/hash-text'
import type { Problem } from '@weft/types'
import t from 'tap'
import { chainBlocks, filledFolder, postRaw, send, startNode } from '../fixtures/node.js'

// One devnet-filled folder (20 chains, with forks) for the whole file: every test opens a node on it in turn.
const dir = await filledFolder(t, 'development', 200, 0.2)

for (const profile of ['spec', 'chainweb'] as const) {
  t.test(`${profile} profile: every malformed branch body gets the contract's status, never 500`, async (t) => {
    const server = await startNode(t, { data: dir, network: 'development', profile })
    const base = `${server.url}/${profile === 'spec' ? 'chain' : 'chainweb'}/0.0/development`
    const chain0 = await chainBlocks(server, 0)
    const tip = chain0[chain0.length - 1]!.hash
    const bodies: Array<[string, string | Buffer, number]> = [
      ['invalid JSON', '{"upper": [', 400],
      ['empty body', '', 400],
      ['an array', '[]', 400],
      ['null', 'null', 400],
      ['upper a string', '{"upper": "x"}', 400],
      ['upper of numbers', '{"upper": [1, 2]}', 400],
      ['lower an object', `{"upper": ["${tip}"], "lower": {}}`, 400],
      ['a malformed hash', '{"upper": ["abc"]}', 400],
      ['a hash of 44 characters', `{"upper": ["${tip}A"]}`, 400],
      ['33 upper bounds', JSON.stringify({ upper: Array.from({ length: 33 }, (_, i) => encodeHash(Buffer.alloc(32, i))) }), 400],
      [
        '33 lower bounds',
        JSON.stringify({ upper: [tip], lower: Array.from({ length: 33 }, (_, i) => encodeHash(Buffer.alloc(32, i))) }),
        400,
      ],
      ['32 duplicated upper bounds', JSON.stringify({ upper: Array.from({ length: 40 }, () => tip) }), 200],
      ['a lower bound 20,000 times', JSON.stringify({ upper: [tip], lower: Array.from({ length: 20_000 }, () => chain0[1]!.hash) }), 200],
      ['3 MiB', JSON.stringify({ upper: [tip], pad: 'x'.repeat(3 * 1024 * 1024) }), 413],
    ]
    for (const [what, body, status] of bodies) {
      t.equal(
        (await send(`${base}/chain/0/block/branch`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status,
        status,
        what,
      )
    }
    const tooMany = await postRaw(`${base}/chain/0/block/branch`, {
      upper: Array.from({ length: 33 }, (_, i) => encodeHash(Buffer.alloc(32, i))),
    })
    if (profile === 'spec') t.equal(JSON.parse(tooMany.body.toString()).code, 'TOO_MANY_BOUNDS')
    t.equal(
      (await send(`${base}/chain/0/block/branch`, { method: 'POST', body: JSON.stringify({ upper: [tip] }) })).status,
      415,
      'no content type',
    )
    t.equal(
      (await send(`${base}/chain/0/block/branch`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' })).status,
      415,
      'text/plain',
    )
    t.equal(
      (
        await send(`${base}/chain/0/block/branch`, {
          method: 'POST',
          headers: { 'content-type': 'application/json;charset=utf-8' },
          body: JSON.stringify({ upper: [tip] }),
        })
      ).status,
      200,
      'charset allowed',
    )
  })
}

t.test('too many bounds are answered before an unknown cursor, and an unknown cursor before an unknown upper bound', async (t) => {
  const server = await startNode(t, { data: dir, network: 'development' })
  const base = `${server.url}/chain/0.0/development/chain/0/block/branch`
  const unknown = (byte: number): string => encodeHash(Buffer.alloc(32, byte))
  const codeOf = async (query: string, body: unknown): Promise<[number, string]> => {
    const response = await postRaw(`${base}?${query}`, body)
    return [response.status, (JSON.parse(response.body.toString()) as Problem).code]
  }
  const many = Array.from({ length: 33 }, (_, i) => unknown(i))
  t.same(await codeOf(`next=inclusive:${unknown(200)}`, { upper: many }), [400, 'TOO_MANY_BOUNDS'])
  t.same(await codeOf(`next=inclusive:${unknown(200)}`, { upper: [unknown(201)], lower: many }), [400, 'TOO_MANY_BOUNDS'])
  t.same(await codeOf(`next=inclusive:${unknown(200)}`, { upper: [unknown(201)] }), [404, 'CURSOR_NOT_FOUND'])
  t.same(await codeOf('limit=1', { upper: [unknown(201)] }), [404, 'BLOCK_NOT_FOUND'])
})

t.test("a malformed body's detail says where, what was expected and what was received", async (t) => {
  const server = await startNode(t, { data: dir, network: 'development' })
  const base = `${server.url}/chain/0.0/development/chain/0`
  const detail = async (path: string, body: string): Promise<string> =>
    (JSON.parse((await postRaw(`${base}${path}`, body, false)).body.toString()) as Problem).detail
  t.equal(
    await detail('/block/branch', '{"upper": [1, 2]}'),
    'Expected upper[0] to be a hash: 43 base64url characters (32 bytes), one trailing = tolerated, received 1',
  )
  t.equal(
    await detail('/block/branch', 'null'),
    'Expected the body to be a JSON object {"lower": [hash...], "upper": [hash...]}, received null',
  )
  t.equal(await detail('/payload/batch', '{"hashes": "x"}'), 'Expected hashes to be an array of payload hashes, received "x"')
  t.match(await detail('/block/branch', '{"upper": ['), /^Expected a JSON body/)
})
