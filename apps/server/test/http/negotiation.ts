import t from 'tap'
import { negotiate, requireJsonContentType } from '../../src/http/negotiation.js'
import { chainBlocks, postRaw, send, startNode } from '../fixtures/node.js'

// An empty development store: its genesis blocks are enough to page over.
const dir = t.testdir()

t.test("JSON endpoints serve the contract's Accept values and refuse the rest", async (t) => {
  for (const accept of [
    undefined,
    '',
    '*/*',
    'application/*',
    'application/json',
    'application/json;charset=utf-8',
    'APPLICATION/JSON; Charset="UTF-8"',
    'text/plain, */*;q=0.1',
    ',application/json',
  ]) {
    t.equal(negotiate(accept), 'json', String(accept))
  }
  for (const accept of [
    'text/plain',
    'application/json;q=0',
    'application/json;charset=ascii',
    'application/json;x',
    '*/*;level=1',
    'application/*;a=b',
    'application/octet-stream',
    'application/json;blockheader-encoding=object',
  ]) {
    t.throws(() => negotiate(accept), { code: 'NOT_ACCEPTABLE' }, accept)
  }
  t.throws(
    () => negotiate('application/json;q=zero;a=1'),
    { code: 'NOT_ACCEPTABLE' },
    'a malformed weight counts as 1, the parameter still refuses',
  )
  t.equal(negotiate('application/json;q=abc'), 'json')
})

t.test('header endpoints also offer header objects and raw bytes, by preference', async (t) => {
  const offers = ['json', 'header-object', 'binary'] as const
  t.equal(negotiate('application/json;blockheader-encoding=object', offers), 'header-object')
  t.equal(negotiate('application/json;charset=utf-8;blockheader-encoding=object', offers), 'header-object')
  t.throws(() => negotiate('application/json;blockheader-encoding=base64', offers), { code: 'NOT_ACCEPTABLE' }, 'an unknown encoding')
  t.equal(negotiate('application/octet-stream', offers), 'binary')
  t.equal(negotiate('application/octet-stream;q=0.5, application/json;blockheader-encoding=object', offers), 'header-object')
  t.equal(negotiate('*/*', offers), 'json')
  t.equal(negotiate('*/*', ['header-object']), 'header-object', '*/* takes the first offer')
  t.throws(() => negotiate('application/json', ['binary']), { code: 'NOT_ACCEPTABLE' })
  t.throws(() => negotiate('application/octet-stream;x=1', offers), { code: 'NOT_ACCEPTABLE' })
})

t.test('POST bodies must be declared application/json, parameters allowed', async (t) => {
  t.doesNotThrow(() => requireJsonContentType('application/json'))
  t.doesNotThrow(() => requireJsonContentType('Application/JSON; charset=utf-8'))
  t.throws(() => requireJsonContentType(undefined), { code: 'UNSUPPORTED_MEDIA_TYPE', message: /none/ })
  t.throws(() => requireJsonContentType('text/json'), { code: 'UNSUPPORTED_MEDIA_TYPE' })
})

t.test('Accept values the contract serves, and the ones it refuses', async (t) => {
  const server = await startNode(t, { data: dir, network: 'development' })
  const url = `${server.url}/chain/0.0/development/chain/0/block?limit=1`
  for (const accept of [
    '*/*',
    'application/*',
    'application/json',
    'application/json;charset=utf-8',
    'application/json; charset=UTF-8',
    'text/html, application/json;q=0.9',
    'text/html,*/*;q=0.8',
    '',
  ]) {
    const response = await send(url, { headers: { accept } })
    t.equal(response.status, 200, `Accept: ${accept}`)
    t.equal(response.headers['content-type'], 'application/json;charset=utf-8')
  }
  for (const accept of [
    'text/plain',
    'application/json;charset=utf-16',
    'application/json;profile=x',
    'application/octet-stream',
    '*/*;x=1',
    'application/json;q=0',
    'application/json;blockheader-encoding=object',
  ]) {
    const response = await send(url, { headers: { accept } })
    t.equal(response.status, 406, `Accept: ${accept}`)
    t.equal(JSON.parse(response.body.toString()).code, 'NOT_ACCEPTABLE')
  }
  t.equal(
    (await send(`${server.url}/health-check`, { headers: { accept: 'text/csv' } })).status,
    200,
    'health-check is not a JSON endpoint',
  )
})

for (const profile of ['spec', 'chainweb'] as const) {
  t.test(`${profile} profile: pages and branches refuse other media types and parameters with 406`, async (t) => {
    const server = await startNode(t, { data: dir, network: 'development', profile })
    const base = `${server.url}/${profile === 'spec' ? 'chain' : 'chainweb'}/0.0/development`
    const tip = (await chainBlocks(server, 0))[0]!.hash
    t.equal((await send(`${base}/chain/0/block`, { headers: { accept: 'text/html' } })).status, 406, 'text/html is not acceptable')
    t.equal((await send(`${base}/chain/0/block`, { headers: { accept: 'application/json;charset=latin1' } })).status, 406, 'other charset')
    t.equal((await send(`${base}/chain/0/block`, { headers: { accept: 'application/json;v=2' } })).status, 406, 'other parameters')
    t.equal(
      (await postRaw(`${base}/chain/0/block/branch`, { upper: [tip] }, true, { accept: 'application/xml' })).status,
      406,
      'branch: application/xml',
    )
  })
}
