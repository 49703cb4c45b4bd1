import { WeftError } from '@weft/errors'
import t from 'tap'
import * as index from '../src/index.js'
import { blockOf, output, payload, requestKey, transfer } from './fixtures/outputs.js'

t.test('the package entry names the public surface', async (t) => {
  for (const name of [
    'deriveEntries',
    'encodeEntries',
    'indexOperations',
    'decodeEntry',
    'requestKeyPrefix',
    'canonicalDecimal',
    'canonicalInteger',
    'transactionRange',
    'pactRange',
    'eventRange',
    'moduleEventsRange',
    'allEventsRange',
    'accountRange',
    'accountTokensRange',
    'blockRange',
    'encodeCursor',
    'decodeCursor',
    'InvalidBlockRefError',
    'InvalidIndexKeyError',
    'InvalidIndexQueryError',
  ])
    t.type((index as Record<string, unknown>)[name], 'function', name)
  t.equal(index.COINBASE_POSITION, -1)
  t.equal(index.INDEX_PREFIX, 0x69)
  t.same(index.IndexKind, { transaction: 0x72, event: 0x65, account: 0x61, block: 0x62, pact: 0x70 })
  t.equal(index.REQUEST_KEY_PREFIX_BYTES, 12)
  t.equal(index.BLOCK_HASH_PREFIX_BYTES, 8)
  t.equal(index.MAX_TEXT_BYTES, 1024)
  t.equal(index.MAX_DECIMAL_LENGTH, 512)
})

t.test('every error is a WeftError of the package with its code', async (t) => {
  const errors = [
    new index.InvalidBlockRefError('m'),
    new index.InvalidIndexKeyError('m'),
    new index.InvalidIndexQueryError('INVALID_INDEX_QUERY', 'm'),
    new index.InvalidIndexQueryError('CURSOR_OUT_OF_RANGE', 'm', { cause: 1 }),
  ]
  t.same(
    errors.map((e) => [e instanceof WeftError, e instanceof index.IndexError, e.code, e.name]),
    [
      [true, true, 'INVALID_BLOCK_REF', 'InvalidBlockRefError'],
      [true, true, 'INVALID_INDEX_KEY', 'InvalidIndexKeyError'],
      [true, true, 'INVALID_INDEX_QUERY', 'InvalidIndexQueryError'],
      [true, true, 'CURSOR_OUT_OF_RANGE', 'InvalidIndexQueryError'],
    ],
  )
  t.equal(errors[3]!.cause, 1)
})

t.test('indexOperations is deriveEntries then encodeEntries', async (t) => {
  const block = blockOf(payload([output(requestKey('x'), [transfer('a', 'b', '1')])]))
  t.same(index.indexOperations(block), index.encodeEntries(index.deriveEntries(block)))
})
