import t from 'tap'
import { errorCode, isWeftError, WeftError } from '../src/index.js'

class ExampleError extends WeftError {
  static override readonly codes = ['EXAMPLE', 'OTHER_EXAMPLE'] as const
  constructor(code: (typeof ExampleError.codes)[number], options?: ErrorOptions) {
    super(code, `Expected an example, received ${code}`, options)
  }
}

class Unlisted extends WeftError {
  constructor() {
    super('UNLISTED', 'never listed')
  }
}

t.test('an error carries its code, its message, its cause and its class name', async (t) => {
  const cause = new Error('underneath')
  const error = new ExampleError('OTHER_EXAMPLE', { cause })
  t.equal(error.code, 'OTHER_EXAMPLE')
  t.equal(error.message, 'Expected an example, received OTHER_EXAMPLE')
  t.equal(error.cause, cause)
  t.equal(error.name, 'ExampleError')
  t.ok(error instanceof Error)
  t.ok(isWeftError(error))
  t.match(String(error.stack), /ExampleError: Expected an example/)
})

t.test('a class is thrown only with the codes it lists', async (t) => {
  t.throws(() => new Unlisted(), { name: 'TypeError', message: /Unlisted to be thrown with one of its codes \(none\), received UNLISTED/ })
  t.throws(() => new ExampleError('NOPE' as 'EXAMPLE'), /one of its codes \(EXAMPLE, OTHER_EXAMPLE\)/)
})

t.test('errorCode reads the code of Weft errors and of other coded errors', async (t) => {
  t.equal(errorCode(new ExampleError('EXAMPLE')), 'EXAMPLE')
  t.equal(errorCode(Object.assign(new Error('fs'), { code: 'ENOENT' })), 'ENOENT')
  t.equal(errorCode(new Error('plain')), undefined)
  t.equal(errorCode({ code: 7 }), undefined)
  t.equal(errorCode(null), undefined)
  t.equal(errorCode(undefined), undefined)
  t.notOk(isWeftError(new Error('plain')))
})
