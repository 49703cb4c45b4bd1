import type { Profile } from '@weft/types'
import t from 'tap'
import { responseChecker } from '../src/check/index.js'
import {
  basePath,
  type ChainTarget,
  createFetchTransport,
  followingCursor,
  followPages,
  readBlockPage,
  readBranchPage,
  readCut,
  readHeaderUpdate,
  readInfo,
} from '../src/index.js'
import { json, mainnetBlocks, mainnetCut, mainnetInfo, mainnetUpdates, serveNode } from './fixtures/node.js'

const { send } = createFetchTransport()
const [first, second] = mainnetBlocks.map((block) => block.header.hash) as [string, string]
const target = (url: string, profile: Profile): ChainTarget => ({ base: `${url}${basePath(profile, 'mainnet01')}`, profile })

for (const profile of ['spec', 'chainweb'] as const) {
  t.test(`reads of a node in the ${profile} profile, checked against the schemas`, async (t) => {
    const node = await serveNode(t, profile)
    const at = target(node.url, profile)
    const options = { checker: responseChecker }
    const { info, header } = await readInfo(send, node.url, options)
    t.same(info, mainnetInfo)
    t.equal(header(profile === 'chainweb' ? 'x-chainweb-node-version' : 'x-chain-node-version'), 'mainnet01')
    t.same(await readCut(send, at, undefined, options), mainnetCut)
    await readCut(send, at, 12, options)
    t.equal(node.requests.at(-1)?.path, `${basePath(profile, 'mainnet01')}/cut?maxheight=12`)

    const pages = []
    for await (const page of followPages((next) => readBlockPage(send, at, 0, { limit: 1, next }, options))) pages.push(page)
    t.same(
      pages.map((page) => page.items.map((block) => block.header.height)),
      [[1000000], [1000001]],
      'ascending, one page per block, no page after the last',
    )
    t.equal(pages[0]!.items[0]!.header.featureFlags, '0', 'featureFlags exact, as a decimal string')
    t.equal(pages[1]!.next, profile === 'spec' ? null : `exclusive:${second}`)

    const branch = await readBranchPage(send, at, 0, { upper: [second] }, { limit: 1 }, options)
    t.same(
      branch.items.map((block) => block.header.hash),
      [second],
    )
    t.equal(followingCursor(branch), `inclusive:${first}`)
    t.same(JSON.parse(node.requests.at(-1)!.body), { lower: [], upper: [second] })
    t.equal(node.requests.at(-1)!.headers['content-type'], 'application/json')
    t.same(
      await readBlockPage(send, at, 0, { minheight: 2_000_000 }, options),
      { limit: 0, items: [], next: null },
      'no match: an empty page',
    )
    t.same(await readBranchPage(send, at, 0, {}, { minheight: 2_000_000 }), { limit: 0, items: [], next: null })

    const data = JSON.stringify(mainnetUpdates[0]).replace(
      '"chainwebVersion":',
      profile === 'spec' ? '"chainVersion":' : '"chainwebVersion":',
    )
    const update = readHeaderUpdate(data, profile, 'an update', responseChecker)
    t.equal(update.header.height, 1554652)
    t.equal(
      update.header.featureFlags,
      String(mainnetUpdates[0]!.header && (mainnetUpdates[0]!.header as { featureFlags: number }).featureFlags),
    )
  })
}

t.test('bodies out of contract are invalid responses that say what was expected', async (t) => {
  const node = await serveNode(t, 'spec')
  const at = target(node.url, 'spec')
  let body = ''
  node.intercept = (_req, res) => {
    json(res, 200, body)
    return true
  }
  body = 'not json'
  await t.rejects(readInfo(send, node.url), {
    code: 'INVALID_RESPONSE',
    message: `Expected GET ${node.url}/info to answer JSON, received text that does not parse`,
  })
  await t.rejects(readCut(send, at), { code: 'INVALID_RESPONSE', message: /cut to answer JSON/ })
  await t.rejects(readBlockPage(send, at, 0, {}), { code: 'INVALID_RESPONSE', message: /block to answer JSON/ })
  body = '{"items":null}'
  await t.rejects(readBlockPage(send, at, 0, {}), {
    code: 'INVALID_RESPONSE',
    message: /block to answer a page with items, received none$/,
  })
  body = 'null'
  await t.rejects(readBranchPage(send, at, 0, {}, {}), { message: /branch to answer a page with items/ })
  body = '{"limit":1,"items":[{"header":{}}],"next":null}'
  t.equal((await readBlockPage(send, at, 0, {})).items.length, 1, 'unchecked, a page is taken as it is')
  await t.rejects(readBlockPage(send, at, 0, {}, { checker: responseChecker }), {
    code: 'INVALID_RESPONSE',
    message: /block to match its schema, received a body where \/items\/0/,
  })
  body = '{"hashes":{}}'
  await t.rejects(readCut(send, at, undefined, { checker: responseChecker }), {
    code: 'INVALID_RESPONSE',
    message: /cut to match its schema/,
  })
  t.throws(() => readHeaderUpdate('{"header":', 'spec', 'an update event'), {
    code: 'INVALID_RESPONSE',
    message: 'Expected an update event to answer JSON, received text that does not parse',
  })
  t.throws(() => readHeaderUpdate('{"header":{}}', 'chainweb', 'an update event', responseChecker), {
    message: /an update event to match its schema/,
  })
  node.intercept = (_req, res) => {
    json(res, 404, '{"code":"CURSOR_NOT_FOUND"}')
    return true
  }
  await t.rejects(
    readBlockPage(send, at, 0, { next: `inclusive:${first}` }),
    { code: 'HTTP_ERROR', serverCode: 'CURSOR_NOT_FOUND' },
    'other errors pass through',
  )
})
