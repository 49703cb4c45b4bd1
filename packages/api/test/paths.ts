import t from 'tap'
import { chainPaths, nodeUrlProblem, pageQueryString, parseNodeUrl } from '../src/index.js'

t.test('a query string carries only the parameters given, in one order', async (t) => {
  t.equal(pageQueryString({}), '')
  t.equal(pageQueryString({ next: null, limit: undefined }), '')
  t.equal(
    pageQueryString({ maxheight: 9, minheight: 1, next: 'inclusive:x', limit: 5 }),
    '?limit=5&next=inclusive%3Ax&minheight=1&maxheight=9',
  )
})

t.test('the endpoints of a base path', async (t) => {
  const base = 'http://h/chain/0.0/development'
  t.equal(chainPaths.cut(base), `${base}/cut`)
  t.equal(chainPaths.cut(base, 40), `${base}/cut?maxheight=40`)
  t.equal(chainPaths.blockPage(base, 3), `${base}/chain/3/block`)
  t.equal(chainPaths.blockPage(base, 3, { limit: 2 }), `${base}/chain/3/block?limit=2`)
  t.equal(chainPaths.branchPage(base, 3), `${base}/chain/3/block/branch`)
  t.equal(chainPaths.branchPage(base, 3, { maxheight: 7 }), `${base}/chain/3/block/branch?maxheight=7`)
  t.equal(chainPaths.headerUpdates(base), `${base}/header/updates`)
  t.equal(chainPaths.headerUpdates(base, 'ab.1 2'), `${base}/header/updates?since=ab.1%202`, 'the id to resume after')
  t.equal(chainPaths.headerUpdates(base, undefined, 6), `${base}/header/updates?depth=6`, 'at a confirmation depth')
  t.equal(chainPaths.headerUpdates(base, 'ab.1', 0), `${base}/header/updates?depth=0&since=ab.1`, 'both')
})

t.test('a node URL gives its root, and its profile and network when its path is a base path', async (t) => {
  t.same(parseNodeUrl('http://h:1848/'), { url: 'http://h:1848', root: 'http://h:1848', profile: undefined, network: undefined })
  t.same(parseNodeUrl('https://h/chainweb/0.0/mainnet01/'), {
    url: 'https://h/chainweb/0.0/mainnet01',
    root: 'https://h',
    profile: 'chainweb',
    network: 'mainnet01',
  })
  t.same(parseNodeUrl('http://h/node-1/chain/0.0/development'), {
    url: 'http://h/node-1/chain/0.0/development',
    root: 'http://h/node-1',
    profile: 'spec',
    network: 'development',
  })
  t.equal(parseNodeUrl('http://h/proxy').root, 'http://h/proxy', 'any other path is a prefix of the host root')
  t.same(parseNodeUrl('not a url//'), { url: 'not a url', root: 'not a url', profile: undefined, network: undefined })
})

t.test('a node URL is http or https, without query or fragment', async (t) => {
  t.equal(nodeUrlProblem('http://h:1848/x'), undefined)
  t.equal(nodeUrlProblem('https://h'), undefined)
  for (const bad of ['ftp://h', 'not a url']) t.equal(nodeUrlProblem(bad), 'an http or https URL', bad)
  for (const bad of ['http://h/?a=1', 'http://h/#x']) t.equal(nodeUrlProblem(bad), 'a URL without query or fragment', bad)
})
