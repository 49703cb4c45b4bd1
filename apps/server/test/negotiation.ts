import t from 'tap'
import { negotiate, requireJsonContentType } from '../src/negotiation.js'

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
