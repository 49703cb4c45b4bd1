import t from 'tap'
import { helpText, parseCommandLine } from '../../src/config/command-line.js'
import { InvalidConfigError } from '../../src/errors.js'

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

t.test('an empty flag value counts as unset, and its variable is not read then', async (t) => {
  t.same(parseCommandLine(['--host', ''], { WEFT_HOST: '::1' }), { help: false, options: {} })
  t.same(parseCommandLine([], { WEFT_HOST: '::1' }), { help: false, options: { host: '::1' } })
})

t.test('malformed command lines are refused with a message', async (t) => {
  t.throws(() => parseCommandLine(['--colour'], {}), InvalidConfigError)
  t.throws(() => parseCommandLine(['extra'], {}), InvalidConfigError)
  t.throws(() => parseCommandLine(['--port', 'abc'], {}), { code: 'INVALID_CONFIG', message: /--port/ })
  t.throws(() => parseCommandLine([], { WEFT_PORT: 'abc' }), {
    message: 'Expected WEFT_PORT to be an integer from 0 to 65535, received "abc"',
  })
  t.throws(() => parseCommandLine([], { WEFT_BLOCK_DELAY: ' ' }), { code: 'INVALID_CONFIG' })
  t.throws(() => parseCommandLine([], { WEFT_DEVNET: 'maybe' }), { code: 'INVALID_CONFIG', message: /WEFT_DEVNET/ })
  t.same(parseCommandLine(['--emulate', '2.32'], { WEFT_EMULATE: '3.2' }), { help: false, options: { emulate: '2.32' } })
  t.same(parseCommandLine([], { WEFT_EMULATE: '2.32' }), { help: false, options: { emulate: '2.32' } })
})

t.test('help lists every flag with its environment variable', async (t) => {
  const text = helpText()
  for (const flag of [
    '--host',
    '--port',
    '--data',
    '--network',
    '--profile',
    '--emulate',
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
    'WEFT_EMULATE',
    'WEFT_DEVNET',
    'WEFT_BLOCK_DELAY',
    'WEFT_FORK_RATE',
    'WEFT_SERVICE_DATE',
    'WEFT_LOG_LEVEL',
    'WEFT_KEEP_ALIVE',
  ])
    t.match(text, env)
})

t.test('help gives each flag its default', async (t) => {
  const lines = helpText().split('\n')
  const line = (flag: string): string => lines.find((text) => text.trimStart().startsWith(flag)) ?? ''
  t.match(line('--port <n>'), /WEFT_PORT +port to listen on, 0 for any \(default 1848\)$/)
  t.match(
    line('--network <name>'),
    /mainnet01 \| testnet06 \| testnet04 \| recap-development \| development \| test-singleton \(default development\)$/,
  )
  t.match(line('--devnet / --no-devnet'), /\(default on for development, recap-development and\s+test-singleton without --upstream\)$/)
  t.match(
    line('--emulate <release>'),
    /WEFT_EMULATE +chainweb profile: the chainweb-node release to answer as: 3\.2 \| 2\.32 \(default 3\.2\)$/,
  )
  t.match(line('--block-delay <seconds>'), /\(default the network's\)$/)
  t.match(line('--concurrent-reads <n>'), /\(default 4 on a node that writes \(devnet producer or --upstream\), else 16\)$/)
  t.notMatch(helpText(), /bodyLimit|maxBacklogBytes|body-limit/, 'options without a flag are not on the command line')
})
