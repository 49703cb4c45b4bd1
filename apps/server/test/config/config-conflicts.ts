import t from 'tap'
import { resolveConfig } from '../../src/config/config.js'

t.test('the devnet producer is refused on the real networks, with the fix', async (t) => {
  t.throws(() => resolveConfig({ network: 'mainnet01', devnet: true }), {
    code: 'INVALID_CONFIG',
    message:
      'The devnet producer runs on the development networks (development, recap-development, test-singleton), not on mainnet01, a real network whose blocks it cannot mine. ' +
      'Fix: turn the producer off (--no-devnet), or serve a development network (--network development)',
  })
  for (const network of ['testnet04', 'testnet06'] as const)
    t.throws(() => resolveConfig({ network, devnet: true }), { message: new RegExp(`not on ${network}`) })
  for (const network of ['development', 'recap-development', 'test-singleton'] as const) t.equal(resolveConfig({ network }).devnet, true)
  t.equal(resolveConfig({ network: 'mainnet01' }).devnet, false, 'off by default there, so no conflict')
})

t.test('producer settings given while the producer is off are refused, defaults are not', async (t) => {
  t.throws(() => resolveConfig({ devnet: false, blockDelay: 2 }), {
    message: 'block delay only applies to the devnet producer, which is off. Fix: drop them, or turn the producer on (--devnet)',
  })
  t.throws(() => resolveConfig({ network: 'mainnet01', forkRate: 0.1, blockDelay: 1 }), {
    message: /^block delay and fork rate only apply/,
  })
  t.equal(resolveConfig({ devnet: false }).forkRate, 0.05, 'the default fork rate is no conflict')
  t.equal(resolveConfig({ devnet: true, blockDelay: 2 }).blockDelay, 2)
})

t.test('a headers timeout longer than the request timeout is refused, with the fix', async (t) => {
  t.throws(() => resolveConfig({ headersTimeout: 40 }), {
    code: 'INVALID_CONFIG',
    message:
      'The headers timeout (40 s) is longer than the request timeout (30 s), which covers the headers too. Fix: give --headers-timeout at most the --request-timeout',
  })
  t.equal(resolveConfig({ headersTimeout: 5, requestTimeout: 5 }).headersTimeout, 5, 'equal is allowed')
})

t.test('the traffic settings default to limits one heavy but honest client never meets', async (t) => {
  const config = resolveConfig({})
  t.match(config, {
    headersTimeout: 10,
    requestTimeout: 30,
    keepAliveTimeout: 5,
    maxConnections: 10_000,
    maxPerClient: 256,
    maxStreamsPerClient: 2048,
    trustProxy: false,
    concurrentReads: 4,
    syncWrites: false,
  })
  t.ok(config.maxPerClient >= 100, 'an indexer with 100 parallel requests')
  t.ok(
    config.maxStreamsPerClient >= 1000 && config.maxConnections > 1000 + config.maxPerClient,
    'a dashboard host with 1,000 event streams',
  )
  for (const [name, value] of [
    ['maxPerClient', 0],
    ['maxConnections', 1.5],
    ['headersTimeout', 0],
    ['requestTimeout', 100_000],
  ] as const)
    t.throws(() => resolveConfig({ [name]: value }), { code: 'INVALID_CONFIG' }, `${name} ${value}`)
})
