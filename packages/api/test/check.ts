import { Type } from '@sinclair/typebox'
import t from 'tap'
import { checkSchema, responseChecker } from '../src/check/index.js'
import { mainnetCut, mainnetInfo } from './fixtures/node.js'

t.test('a value that matches its schema is returned as it is', async (t) => {
  const schema = Type.Object({ a: Type.Integer() })
  const value = { a: 1 }
  t.equal(checkSchema(schema, value, 'x'), value)
  t.equal(checkSchema(schema, { a: 2 }, 'x').a, 2, 'the second check uses the schema compiled by the first')
})

t.test('a value that does not names the first three failures and keeps them all', async (t) => {
  const schema = Type.Object({ a: Type.Integer(), b: Type.String(), c: Type.Boolean(), d: Type.Null() })
  const error = (() => {
    try {
      checkSchema(schema, { a: 'x', b: 1, c: 2, d: 3 }, 'GET /thing')
    } catch (caught) {
      return caught as { code: string; message: string; errors: string[] }
    }
  })()
  t.equal(error?.code, 'INVALID_RESPONSE')
  t.match(
    error?.message,
    /^Expected GET \/thing to match its schema, received a body where \/a Expected integer; \/b Expected string; \/c Expected boolean$/,
  )
  t.ok((error?.errors.length ?? 0) >= 4, 'every failure is kept')
  t.throws(() => checkSchema(schema, null, 'x'), { message: /where \/ Expected object/ }, 'the whole value is /')
})

t.test('the response checker knows each kind of body in each profile', async (t) => {
  t.doesNotThrow(() => responseChecker.check('info', 'spec', mainnetInfo, 'info'))
  t.doesNotThrow(() => responseChecker.check('cut', 'chainweb', mainnetCut, 'cut'))
  t.throws(() => responseChecker.check('page', 'spec', { limit: 0, items: [{}], next: null }, 'a page'), { code: 'INVALID_RESPONSE' })
  t.doesNotThrow(() => responseChecker.check('page', 'chainweb', { limit: 0, items: [], next: null }, 'a page'))
  t.throws(() => responseChecker.check('update', 'spec', {}, 'an update'), { message: /an update to match its schema/ })
})
