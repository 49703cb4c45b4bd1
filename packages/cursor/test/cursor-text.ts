import { encodeHash } from '@weft/hash-text'
import fc from 'fast-check'
import t from 'tap'
import { CursorError, formatCursor, InvalidCursorError, parseCursor } from '../src/index.js'

const hashBytes = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => Buffer.from(bytes))

t.test('a cursor round-trips through its text for both kinds and any hash', async (t) => {
  fc.assert(
    fc.property(fc.boolean(), hashBytes, (inclusive, hash) => {
      const text = formatCursor({ inclusive, hash })
      const cursor = parseCursor(text)
      return (
        text === `${inclusive ? 'inclusive' : 'exclusive'}:${encodeHash(hash)}` &&
        cursor.inclusive === inclusive &&
        cursor.hash.equals(hash)
      )
    }),
  )
  t.pass('every generated cursor round-trips')
})

t.test('one trailing padding character in the hash is tolerated', async (t) => {
  const hash = Buffer.alloc(32, 7)
  const cursor = parseCursor(`exclusive:${encodeHash(hash)}=`)
  t.equal(cursor.inclusive, false)
  t.same(cursor.hash, hash)
})

t.test('a Uint8Array hash that is not a Buffer is formatted too', async (t) => {
  const bytes = new Uint8Array(40).fill(1).subarray(4, 36)
  t.equal(formatCursor({ inclusive: true, hash: bytes }), `inclusive:${Buffer.from(bytes).toString('base64url')}`)
})

t.test('a cursor with a wrong, missing or differently cased prefix is refused', async (t) => {
  const hash = encodeHash(Buffer.alloc(32, 1))
  for (const text of [
    hash,
    `Inclusive:${hash}`,
    `EXCLUSIVE:${hash}`,
    `inclusive ${hash}`,
    `inclusive;${hash}`,
    `after:${hash}`,
    `:${hash}`,
    '',
  ]) {
    const error = catchError(() => parseCursor(text))
    t.ok(error instanceof InvalidCursorError, JSON.stringify(text))
    t.ok(error instanceof CursorError)
    t.equal((error as InvalidCursorError).code, 'INVALID_CURSOR')
    t.match((error as Error).message, /inclusive:.*exclusive:/)
  }
})

t.test('a cursor whose hash is not 32 bytes of unpadded base64url is refused with the cause attached', async (t) => {
  const hash = encodeHash(Buffer.alloc(32, 1))
  for (const text of [
    'inclusive:',
    `inclusive:${hash}==`,
    `exclusive:${hash.slice(1)}`,
    `exclusive:${hash}A`,
    `inclusive:${hash.slice(0, 42)}+`,
    `inclusive: ${hash}`,
    `inclusive:${encodeHash(Buffer.alloc(33))}`,
  ]) {
    const error = catchError(() => parseCursor(text))
    t.ok(error instanceof InvalidCursorError, JSON.stringify(text))
    t.equal((error as InvalidCursorError).code, 'INVALID_CURSOR')
    t.equal(((error as Error).cause as { code?: string }).code, 'INVALID_HASH_TEXT')
  }
})

t.test('a long malformed cursor is quoted shortened in the message', async (t) => {
  const error = catchError(() => parseCursor('x'.repeat(1000))) as Error
  t.ok(error.message.length < 200)
  t.match(error.message, /…/)
})

t.test('formatting a cursor whose hash is not 32 bytes is refused', async (t) => {
  t.throws(() => formatCursor({ inclusive: true, hash: Buffer.alloc(31) }), { code: 'INVALID_CURSOR', message: /32 bytes, received 31/ })
})

function catchError(run: () => unknown): unknown {
  try {
    run()
  } catch (error) {
    return error
  }
  throw new Error('expected the call to throw')
}
