import t from 'tap'
import { checkResponse } from '../src/response-checks.js'

t.test('answers are checked against their schema, failures named', async (t) => {
  const hash = 'A'.repeat(43)
  checkResponse(
    'cut',
    JSON.stringify({ hashes: { '0': { height: 1, hash } }, origin: null, weight: hash, height: 1, instance: 'development', id: hash }),
    'GET /cut',
  )
  t.throws(() => checkResponse('cut', '{"hashes":{}}', 'GET /cut'), {
    code: 'UPSTREAM_BAD_RESPONSE',
    message: /Expected GET \/cut to match its schema/,
  })
  t.throws(() => checkResponse('spec-page', '{"limit":0,"items":[{}],"next":null}', 'GET page'), { message: /\/items\/0/ })
  checkResponse('chainweb-page', '{"limit":0,"items":[],"next":null}', 'GET page')
  t.pass('a page of nothing is a page')
})
