import { createServer } from 'node:http'
import { Writable } from 'node:stream'
import { InvalidCursorError } from '@weft/cursor'
import { CursorNotFoundError } from '@weft/store'
import { until } from '@weft/test-kit'
import { TooManyBoundsError } from '@weft/traversal'
import Koa from 'koa'
import { pino } from 'pino'
import t, { type Test } from 'tap'
import { MethodNotAllowedError, NotAcceptableError, PayloadNotFoundError } from '../../src/errors.js'
import { errorMapping } from '../../src/http/error-mapping.js'
import { startServer } from '../../src/index.js'
import { type ErrorTable, errorTables } from '../../src/profile/error-table.js'
import { send, startNode } from '../fixtures/node.js'
import { rawConnection } from '../fixtures/raw-client.js'

// A real app with the error middleware over one handler that throws what the test gives it; logged lines are kept.
async function throwingApp(t: Test, table: ErrorTable, thrown: () => unknown): Promise<{ url: string; logged: () => string[] }> {
  const lines: string[] = []
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString())
      done()
    },
  })
  const app = new Koa()
  app.silent = true
  app.use(errorMapping(table, pino({ level: 'error' }, sink)))
  app.use(() => {
    throw thrown()
  })
  const server = createServer(app.callback())
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, logged: () => lines }
}

const hash = Buffer.alloc(32, 4)

t.test("errors of lower packages are answered by their code, as the profile's table says", async (t) => {
  const cases: Array<[unknown, number, number, string]> = [
    [new InvalidCursorError('Expected a cursor'), 404, 400, 'text/plain;charset=utf-8'],
    [new CursorNotFoundError(hash, 0), 404, 404, 'application/json;charset=utf-8'],
    [new TooManyBoundsError('upper', 33, 32), 400, 400, 'text/plain;charset=utf-8'],
    [new PayloadNotFoundError(hash), 404, 404, 'application/json;charset=utf-8'],
  ]
  for (const [error, specStatus, chainwebStatus, chainwebType] of cases) {
    const code = (error as { code: string }).code
    const spec = await send((await throwingApp(t, errorTables.spec, () => error)).url)
    t.same([spec.status, spec.headers['content-type']], [specStatus, 'application/problem+json;charset=utf-8'], `spec ${code}`)
    t.equal((JSON.parse(spec.body.toString()) as { code: string }).code, code)
    const chainweb = await send((await throwingApp(t, errorTables.chainweb, () => error)).url)
    t.same([chainweb.status, chainweb.headers['content-type']], [chainwebStatus, chainwebType], `chainweb ${code}`)
    if (chainwebType.startsWith('application/json'))
      t.same(JSON.parse(chainweb.body.toString()), { key: hash.toString('base64url'), reason: 'key not found' })
  }
})

t.test('a 405 names the allowed methods, in every body kind', async (t) => {
  for (const table of Object.values(errorTables)) {
    const app = await throwingApp(t, table, () => new MethodNotAllowedError('PUT', ['GET', 'HEAD', 'OPTIONS']))
    const response = await send(app.url, { method: 'PUT' })
    t.same([response.status, response.headers.allow], [405, 'GET, HEAD, OPTIONS'])
  }
})

t.test('an empty answer has its status and no body; a key-reason answer without a hash has an empty key', async (t) => {
  const table: ErrorTable = {
    ...errorTables.chainweb,
    METHOD_NOT_ALLOWED: { status: 405, body: 'empty' },
    NOT_ACCEPTABLE: { status: 406, body: 'key-reason' },
  }
  const empty = await send((await throwingApp(t, table, () => new MethodNotAllowedError('PUT', ['GET']))).url)
  t.same([empty.status, empty.body.length, empty.headers['content-type']], [405, 0, undefined])
  const keyless = await send((await throwingApp(t, table, () => new NotAcceptableError('x', ['y']))).url)
  t.same([keyless.status, JSON.parse(keyless.body.toString())], [406, { key: '', reason: 'key not found' }])
})

t.test('an error without a code the table lists is a logged 500 without detail', async (t) => {
  const coded = Object.assign(new Error('disk on fire'), { code: 'NOT_FOUND' })
  for (const thrown of [new Error('disk on fire'), coded, 'a string']) {
    const app = await throwingApp(t, errorTables.spec, () => thrown)
    const response = await send(app.url)
    t.match(JSON.parse(response.body.toString()), {
      status: 500,
      code: 'INTERNAL_ERROR',
      detail: 'The server failed to answer this request',
    })
    t.notMatch(response.body.toString(), /fire/, 'no internal detail leaks')
    t.match(app.logged().join(''), /unexpected error/, 'the cause is logged')
  }
})

t.test("an unexpected failure is a 500 in the profile's error format, and the node keeps answering", async (t) => {
  for (const profile of ['spec', 'chainweb'] as const) {
    const server = await startNode(t, { data: t.testdir(), network: 'test-singleton', profile })
    const base = `${server.url}/${profile === 'spec' ? 'chain' : 'chainweb'}/0.0/test-singleton`
    // A closed store fails every read: the one failure a client cannot cause.
    await server.store.close()
    const response = await send(`${base}/chain/0/block`)
    t.equal(response.status, 500)
    if (profile === 'spec')
      t.match(JSON.parse(response.body.toString()), { status: 500, code: 'INTERNAL_ERROR', title: 'Internal Server Error' })
    else t.equal(response.headers['content-type'], 'text/plain;charset=utf-8')
    t.notMatch(response.body.toString(), /closed/i, 'no internal detail leaks')
    t.equal((await send(`${server.url}/health-check`)).status, 200)
    await server.close()
  }
})

t.test('a client that leaves before its answer ends its request quietly: a debug line, no error, no answer attempted', async (t) => {
  const lines: Array<{ level: number; msg: string; status?: number; finished?: boolean }> = []
  const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line)) })
  const server = await startServer({ host: '127.0.0.1', port: 0, data: t.testdir(), network: 'development', devnet: false }, logger)
  t.teardown(() => server.close())
  lines.length = 0 // what the start logged (a warning about the disk's read-ahead, on some machines) is not the subject
  const connection = await rawConnection(server.port)
  connection.socket.write(
    'POST /chain/0.0/development/chain/0/block/branch HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"up',
  )
  // Time for the request to reach its handler, which waits for the rest of the body.
  await new Promise((resolve) => setTimeout(resolve, 100))
  connection.socket.destroy()
  await until(() => lines.some((line) => line.msg === 'client went away before its answer'), 'the log of a client gone before its answer')
  const request = lines.find((line) => line.status !== undefined && line.finished !== undefined)
  t.equal(request?.finished, false, 'the request line says the answer never finished')
  t.not(request?.status, 500, 'no 500 was attempted')
  t.same(
    lines.filter((line) => line.level >= 40),
    [],
    'nothing logged as a warning or an error',
  )
  t.equal((await send(`${server.url}/health-check`)).status, 200)
})
