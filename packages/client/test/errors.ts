import * as api from '@weft/api'
import { WeftError } from '@weft/errors'
import t from 'tap'
import {
  InvalidOptionError,
  InvalidResponseError,
  isTransient,
  parseEventStream,
  ReorgTooDeepError,
  WeftClientError,
  WeftHttpError,
  WeftNetworkError,
} from '../src/index.js'

t.test("the client's own errors carry their stable codes and say what was expected and received", async (t) => {
  const reorg = new ReorgTooDeepError(3, 2, 'h')
  t.equal(reorg.code, 'REORG_TOO_DEEP')
  t.equal(reorg.chain, 3)
  t.match(reorg.message, /^Expected the winning branch of chain 3 to contain h/)
  const option = new InvalidOptionError('depth', 'a non-negative integer', -1)
  t.equal(option.code, 'INVALID_CLIENT_OPTION')
  t.equal(option.option, 'depth')
  t.equal(option.message, 'Expected depth to be a non-negative integer, received -1')
  for (const error of [reorg, option])
    t.ok(error instanceof WeftClientError && error instanceof WeftError, `${error.name} extends both bases`)
  const Base = WeftClientError as unknown as new (code: string, message: string) => Error
  t.throws(() => new Base('REORG_TOO_DEEP', 'x'), TypeError, 'the abstract base owns no code')
})

t.test("the wire's failures, rule and parser are @weft/api's own, for every reader of a node alike", async (t) => {
  t.equal(WeftHttpError, api.WeftHttpError)
  t.equal(WeftNetworkError, api.WeftNetworkError)
  t.equal(InvalidResponseError, api.InvalidResponseError)
  t.equal(isTransient, api.isTransient)
  t.equal(parseEventStream, api.parseEventStream)
})
