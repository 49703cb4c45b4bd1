import t from 'tap'
import { defaultConfig, resolveConfig } from '../../src/config/config.js'

t.test('defaults fill what is missing; the producer defaults on for development networks only', async (t) => {
  const config = resolveConfig({})
  t.same(config, { ...defaultConfig, devnet: true, concurrentReads: 4 })
  t.same(
    [config.host, config.port, config.data, config.network, config.profile, config.keepAlive, config.bodyLimit],
    ['127.0.0.1', 1848, './data', 'development', 'spec', 15, 2 * 1024 * 1024],
  )
  t.equal(resolveConfig({ network: 'test-singleton' }).devnet, true)
  t.equal(resolveConfig({ network: 'recap-development' }).devnet, true, 'recap-development mines through its transition')
  t.equal(config.emulate, '3.2', 'the chainweb profile answers as release 3.2')
  t.equal(resolveConfig({ network: 'mainnet01' }).devnet, false)
  t.equal(resolveConfig({ network: 'test-singleton', devnet: true }).devnet, true, 'the producer on where asked and minable')
  t.equal(resolveConfig({ port: undefined }).port, 1848, 'undefined options are defaults')
})

t.test('read slots default to 4 on a node that writes, 16 on one that only serves its store', async (t) => {
  t.equal(resolveConfig({}).concurrentReads, 4, 'the devnet producer writes')
  t.equal(resolveConfig({ upstream: ['http://127.0.0.1:1'] }).concurrentReads, 4, 'ingest writes')
  t.equal(resolveConfig({ devnet: false }).concurrentReads, 16, 'no producer, no upstream')
  t.equal(resolveConfig({ network: 'mainnet01' }).concurrentReads, 16, 'a real network without an upstream: a store served as it is')
  t.equal(resolveConfig({ devnet: false, concurrentReads: 2 }).concurrentReads, 2, 'a given value wins')
  t.equal(resolveConfig({ concurrentReads: 32 }).concurrentReads, 32, 'on a writing node too')
})

t.test('values out of range are refused', async (t) => {
  const bad: Array<Parameters<typeof resolveConfig>[0]> = [
    { network: 'devnet' as never },
    { profile: 'kadena' as never },
    { port: 70000 },
    { port: 1.5 },
    { blockDelay: 0 },
    { blockDelay: Number.POSITIVE_INFINITY },
    { forkRate: 1.5 },
    { forkRate: Number.NaN },
    { keepAlive: -1 },
    { logLevel: 'loud' as never },
    { serviceDate: 'next tuesday' },
    { maxBacklogBytes: -1 },
    { bodyLimit: 1.5 },
    { host: 5 as never },
    { devnet: 'yes' as never },
    { emulate: '2.19' as never },
  ]
  for (const options of bad) t.throws(() => resolveConfig(options), { code: 'INVALID_CONFIG' }, JSON.stringify(options))
})

t.test('a refused value is named and shown in the message', async (t) => {
  t.throws(() => resolveConfig({ port: 70000 }), { message: 'Expected port to be an integer from 0 to 65535, received 70000' })
  t.throws(() => resolveConfig({ network: 'devnet' as never }), {
    message:
      'Expected network to be one of mainnet01, testnet06, testnet04, recap-development, development, test-singleton, received "devnet"',
  })
  t.throws(() => resolveConfig({ keepAlive: -1 }), { message: /^Expected keep alive to be a non-negative number of seconds/ })
  t.throws(
    () => resolveConfig({ bodyLimit: -1 }),
    { message: /^Expected bodyLimit to be/, code: 'INVALID_CONFIG' },
    'an option without a flag',
  )
})
