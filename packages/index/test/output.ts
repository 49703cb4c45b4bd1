import t from 'tap'
import { MALFORMED } from '../src/json-scan.js'
import { readOutput } from '../src/output.js'
import { continuation, event, output, requestKey, transfer } from './fixtures/outputs.js'

const read = (text: string) => readOutput(Buffer.from(text))
const rk = requestKey('tx')

t.test('an output gives its request key, pact id and events with their exact parameter texts', async (t) => {
  const facts = read(
    output(
      rk,
      [
        transfer('k:alice', '99cb7008d7d70c94', '7.41e-3'),
        event('coin', 'TRANSFER_XCHAIN', '["k:alice","k:bob",27.0478963,"2"]'),
        transfer('k:alice', '', '27.0478963'),
        event('free.crankk01', 'TRANSFER', '["radio01-bank","k:é",{"decimal":"0.671390000000000000000000000000"}]'),
      ],
      continuation(rk, 0),
    ),
  )
  t.equal(facts.requestKey, rk)
  t.equal(facts.pactId, rk)
  t.same(
    facts.events.map(({ index, module, name, params }) => [index, module, name, params]),
    [
      [0, 'coin', 'TRANSFER', '["k:alice","99cb7008d7d70c94",7.41e-3]'],
      [1, 'coin', 'TRANSFER_XCHAIN', '["k:alice","k:bob",27.0478963,"2"]'],
      [2, 'coin', 'TRANSFER', '["k:alice","",27.0478963]'],
      [3, 'free.crankk01', 'TRANSFER', '["radio01-bank","k:é",{"decimal":"0.671390000000000000000000000000"}]'],
    ],
  )
  t.same(
    facts.events.map((e) => e.transfer),
    [
      { sender: 'k:alice', receiver: '99cb7008d7d70c94', amount: '0.00741' },
      undefined,
      { sender: 'k:alice', receiver: '', amount: '27.0478963' },
      { sender: 'radio01-bank', receiver: 'k:é', amount: '0.67139' },
    ],
  )
})

t.test('a TRANSFER amount is a decimal: a number, {"decimal": ...} or {"int": ...}; anything else is no transfer', async (t) => {
  const cases: Array<[string, string | undefined]> = [
    ['8234.567890123457', '8234.567890123457'],
    ['1.0e-3', '0.001'],
    ['{"decimal":"123456789.123456789012"}', '123456789.123456789012'],
    ['{"decimal":1.5}', '1.5'],
    ['{ "int" : 5 }', '5'],
    ['{"int":"9007199254740993"}', '9007199254740993'],
    ['{"int":1.5}', undefined],
    ['{"decimal":"1,5"}', undefined],
    ['{"decimal":"1","int":1}', undefined],
    ['{"other":1}', undefined],
    ['{"decimal":true}', undefined],
    ['{}', undefined],
    ['"1.5"', undefined],
    ['true', undefined],
    ['[1]', undefined],
    ['1e99999999999', undefined],
  ]
  for (const [amount, expected] of cases) {
    const [e] = read(output(rk, [transfer('a', 'b', amount)])).events
    t.equal(e?.transfer?.amount, expected, amount)
    t.equal(e?.params, `["a","b",${amount}]`, 'the event is kept either way')
  }
})

t.test('only a TRANSFER of two strings and an amount is a transfer', async (t) => {
  const shapes = ['["a","b"]', '["a","b",1,"x"]', '[1,"b",1]', '["a",null,1]', '[]']
  for (const params of shapes) t.equal(read(output(rk, [event('coin', 'TRANSFER', params)])).events[0]?.transfer, undefined, params)
  t.equal(read(output(rk, [event('coin', 'TRANSFER_XCHAIN', '["a","b",1]')])).events[0]?.transfer, undefined, 'another name')
  t.equal(read(output(rk, [event('coin', 'TRANSFER', '["a\\u0041","\\"b\\"",1]')])).events[0]?.transfer?.sender, 'aA')
})

t.test('odd events are skipped and keep their place; the others are read', async (t) => {
  const good = event('coin', 'TRANSFER', '["a","b",1]')
  const odd = [
    '5',
    '"TRANSFER"',
    '{"params":[],"module":{"namespace":null,"name":"coin"}}',
    '{"params":[],"name":"","module":{"namespace":null,"name":"coin"}}',
    '{"params":[],"name":7,"module":{"namespace":null,"name":"coin"}}',
    '{"params":[],"name":"X"}',
    '{"params":[],"name":"X","module":"coin"}',
    '{"params":[],"name":"X","module":{"namespace":null}}',
    '{"params":[],"name":"X","module":{"namespace":null,"name":""}}',
    '{"params":[],"name":"X","module":{"namespace":null,"name":3}}',
    '{"params":[],"name":"X","module":{"namespace":1,"name":"m"}}',
    '{"params":[],"name":"X","module":{"namespace":"","name":"m"}}',
    '{"params":{},"name":"X","module":{"namespace":null,"name":"m"}}',
    '{"name":"X","module":{"namespace":null,"name":"m"}}',
  ]
  const facts = read(output(rk, [...odd, good]))
  t.same(
    facts.events.map((e) => [e.index, e.module, e.name]),
    [[odd.length, 'coin', 'TRANSFER']],
  )
  const extra = '{"moduleHash":1,"name":"X","extra":[{"a":1}],"module":{"name":"m","other":true},"params":[1],"name":"Y","params":[2,3]}'
  t.same(
    read(output(rk, [extra])).events.map((e) => [e.module, e.name, e.params]),
    [['m', 'Y', '[2,3]']],
    'unknown members are skipped; a repeated member counts as JSON.parse counts it (the last)',
  )
})

t.test('the pact id comes from a continuation object with a string pactId', async (t) => {
  t.equal(read(output(rk, [], '{"step":1}')).pactId, undefined)
  t.equal(read(output(rk, [], '{}')).pactId, undefined)
  t.equal(read(output(rk, [], '{"pactId":5}')).pactId, undefined)
  t.equal(read(output(rk, [], '"x"')).pactId, undefined)
  t.equal(read(output(rk, [], continuation('p', 1))).pactId, 'p')
})

t.test('members in any order, missing or of other types are read as JSON.parse would see them', async (t) => {
  const facts = read(`{"txId":1,"events":[],"continuation":null,"reqKey":"${rk}","events":[${transfer('a', 'b', '2')}]}`)
  t.equal(facts.requestKey, rk)
  t.equal(facts.events.length, 1)
  t.same(read('{"reqKey":5,"events":{}}'), { requestKey: undefined, pactId: undefined, events: [] })
  t.same(read('{}'), { requestKey: undefined, pactId: undefined, events: [] })
  t.same(read('{"events":[]}').events, [])
  t.same(
    read(
      `{"reqKey":"${rk}","events":[${transfer('a', 'b', '2')}],"continuation":${continuation('p', 1)},"reqKey":null,"events":{},"continuation":"x"}`,
    ),
    { requestKey: undefined, pactId: undefined, events: [] },
    'a repeated member of another type replaces the one before, as in JSON.parse',
  )
  t.equal(read(output(rk, [], '{"pactId":"p","pactId":7}')).pactId, undefined)
  const repeated = '{"name":"X","module":{"namespace":null,"name":"m"},"params":[1],"name":5}'
  t.same(read(output(rk, [repeated, repeated.replace('"name":5', '"module":null'), repeated.replace('"name":5', '"params":7')])).events, [])
})

t.test('an output that is not one JSON object is refused', async (t) => {
  for (const text of ['', '[]', '"x"', 'null', '{"reqKey":"a"', '{"reqKey":"a"} {}', '{"events":[1,]}', '{"result":{"data":"\u0001"}}'])
    t.throws(() => read(text), MALFORMED, JSON.stringify(text))
})
