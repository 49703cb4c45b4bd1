import { Value } from '@sinclair/typebox/value'
import t from 'tap'
import {
  BlockHash,
  ChainId,
  CursorText,
  DigitsText,
  HashInput,
  NetworkName,
  networkNames,
  Profile,
  profileNames,
  U256Text,
} from '../src/index.js'

const hash = 'k0an0qEORusqQg9ZjKrxa-0Bo0-hQVYLXqWi5LHxg3k'

t.test('a block hash is exactly 43 base64url characters, padding only on input', async (t) => {
  t.ok(Value.Check(BlockHash, hash))
  t.notOk(Value.Check(BlockHash, `${hash}=`))
  t.ok(Value.Check(HashInput, `${hash}=`))
  t.notOk(Value.Check(BlockHash, hash.slice(1)))
  t.notOk(Value.Check(BlockHash, hash.replace('k', '+')))
  t.ok(Value.Check(U256Text, '__________________________________________8'))
})

t.test('a 43-character text whose last character carries bits beyond the 32 bytes is no hash', async (t) => {
  const overflowing = `${hash.slice(0, 42)}l`
  for (const schema of [BlockHash, U256Text, HashInput]) t.notOk(Value.Check(schema, overflowing))
  t.notOk(Value.Check(CursorText, `inclusive:${overflowing}`))
  t.ok(Value.Check(CursorText, `exclusive:${hash}=`), 'a cursor tolerates one trailing =')
})

t.test('cursors are inclusive or exclusive, case-sensitive', async (t) => {
  t.ok(Value.Check(CursorText, `inclusive:${hash}`))
  t.ok(Value.Check(CursorText, `exclusive:${hash}`))
  t.notOk(Value.Check(CursorText, `Inclusive:${hash}`))
  t.notOk(Value.Check(CursorText, `inclusive:${hash.slice(2)}`))
})

t.test('networks, profiles and chain ids take only their values', async (t) => {
  t.same(networkNames, ['mainnet01', 'testnet06', 'testnet04', 'recap-development', 'development', 'test-singleton'])
  for (const n of networkNames) t.ok(Value.Check(NetworkName, n))
  t.notOk(Value.Check(NetworkName, 'mainnet02'))
  t.ok(Value.Check(Profile, 'spec'))
  t.ok(Value.Check(Profile, 'chainweb'))
  t.notOk(Value.Check(Profile, 'other'))
  t.same(profileNames, ['spec', 'chainweb'])
  t.ok(Value.Check(ChainId, 19))
  t.notOk(Value.Check(ChainId, -1))
  t.notOk(Value.Check(ChainId, 0.5))
})

t.test('a query integer is any number of decimal digits', async (t) => {
  for (const text of ['0', '360', '1'.repeat(40)]) t.ok(Value.Check(DigitsText, text))
  for (const text of ['', '-1', '1.5', ' 1', 'ten']) t.notOk(Value.Check(DigitsText, text))
})
