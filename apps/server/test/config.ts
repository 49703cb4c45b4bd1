import t from 'tap'
import { defaultConfig, helpText, parseCommandLine, resolveConfig } from '../src/config.js'
import { InvalidConfigError } from '../src/errors.js'

t.test('flags are read, and each falls back to its environment variable', async (t) => {
  const parsed = parseCommandLine(['--port', '9000', '--profile', 'chainweb', '--block-delay', '0.5', '--no-devnet'], {
    WEFT_PORT: '1',
    WEFT_DATA: '/tmp/x',
    WEFT_FORK_RATE: '0.3',
    WEFT_LOG_LEVEL: 'debug',
  })
  t.same(parsed, {
    help: false,
    options: { port: 9000, data: '/tmp/x', profile: 'chainweb', devnet: false, blockDelay: 0.5, forkRate: 0.3, logLevel: 'debug' },
  })
  t.same(
    parseCommandLine([], {
      WEFT_DEVNET: 'off',
      WEFT_KEEP_ALIVE: '0',
      WEFT_SERVICE_DATE: '2031-01-01T00:00:00Z',
      WEFT_HOST: '::1',
      WEFT_NETWORK: 'mainnet01',
    }),
    {
      help: false,
      options: { host: '::1', network: 'mainnet01', devnet: false, serviceDate: '2031-01-01T00:00:00Z', keepAlive: 0 },
    },
  )
  t.same(
    parseCommandLine(['--devnet'], { WEFT_DEVNET: 'false' }),
    { help: false, options: { devnet: true } },
    'a flag beats the environment',
  )
  t.same(
    parseCommandLine([], { WEFT_DEVNET: 'YES', WEFT_PORT: '' }),
    { help: false, options: { devnet: true } },
    'an empty variable is unset',
  )
  t.same(parseCommandLine(['--help', '--port', 'x'], {}), { help: true })
  t.same(
    parseCommandLine(['--', '--port', '9000'], {}),
    { help: false, options: { port: 9000 } },
    'a leading -- from `pnpm start -- …` is not an argument',
  )
  t.throws(
    () => parseCommandLine(['--', '--port', '9000', '--', 'x'], {}),
    InvalidConfigError,
    'arguments after a later -- are still refused',
  )
})

t.test('malformed command lines are refused with a message', async (t) => {
  t.throws(() => parseCommandLine(['--colour'], {}), InvalidConfigError)
  t.throws(() => parseCommandLine(['extra'], {}), InvalidConfigError)
  t.throws(() => parseCommandLine(['--port', 'abc'], {}), { code: 'INVALID_CONFIG', message: /--port/ })
  t.throws(() => parseCommandLine([], { WEFT_BLOCK_DELAY: ' ' }), { code: 'INVALID_CONFIG' })
  t.throws(() => parseCommandLine([], { WEFT_DEVNET: 'maybe' }), { code: 'INVALID_CONFIG', message: /WEFT_DEVNET/ })
})

t.test('defaults fill what is missing; the producer defaults on for development networks only', async (t) => {
  const config = resolveConfig({})
  t.same(config, { ...defaultConfig, devnet: true })
  t.same(
    [config.host, config.port, config.data, config.network, config.profile, config.keepAlive, config.bodyLimit],
    ['127.0.0.1', 1848, './data', 'development', 'spec', 15, 2 * 1024 * 1024],
  )
  t.equal(resolveConfig({ network: 'test-singleton' }).devnet, true)
  t.equal(resolveConfig({ network: 'mainnet01' }).devnet, false)
  t.equal(resolveConfig({ network: 'testnet04', devnet: true }).devnet, true)
  t.equal(resolveConfig({ port: undefined }).port, 1848, 'undefined options are defaults')
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
  ]
  for (const options of bad) t.throws(() => resolveConfig(options), { code: 'INVALID_CONFIG' }, JSON.stringify(options))
})

t.test('help lists every flag with its environment variable', async (t) => {
  const text = helpText()
  for (const flag of [
    '--host',
    '--port',
    '--data',
    '--network',
    '--profile',
    '--devnet / --no-devnet',
    '--block-delay',
    '--fork-rate',
    '--service-date',
    '--log-level',
    '--keep-alive',
    '--help',
  ])
    t.match(text, flag)
  for (const env of [
    'WEFT_HOST',
    'WEFT_PORT',
    'WEFT_DATA',
    'WEFT_NETWORK',
    'WEFT_PROFILE',
    'WEFT_DEVNET',
    'WEFT_BLOCK_DELAY',
    'WEFT_FORK_RATE',
    'WEFT_SERVICE_DATE',
    'WEFT_LOG_LEVEL',
    'WEFT_KEEP_ALIVE',
  ])
    t.match(text, env)
})
