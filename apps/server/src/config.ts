import { parseArgs } from 'node:util'
import { InvalidConfigError } from './errors.js'
import type { ProfileName } from './profiles.js'

/** The networks a node can serve. */
export type NetworkName = 'mainnet01' | 'testnet04' | 'development' | 'test-singleton'

const networkNames: readonly NetworkName[] = ['mainnet01', 'testnet04', 'development', 'test-singleton']
const profileNames: readonly ProfileName[] = ['spec', 'chainweb']
const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const

/** Everything a node needs to start; `startServer` fills what is left out with these defaults. */
export interface ServerConfig {
  host: string
  port: number
  /** Folder of the chain store. */
  data: string
  network: NetworkName
  profile: ProfileName
  /** Run the devnet producer (default: on for development and test-singleton). */
  devnet: boolean
  /** Producer's seconds between blocks of one chain; undefined: the network's block delay. */
  blockDelay: number | undefined
  /** Producer's probability of a fork per block, 0 to 1. */
  forkRate: number
  /** `nodeServiceDate` of /info; undefined: 90 days after start, midnight UTC. */
  serviceDate: string | undefined
  logLevel: (typeof logLevels)[number]
  /** Seconds of idle before a keep-alive comment on event streams; 0 disables. */
  keepAlive: number
  /** Bytes an event-stream client may have pending before it is cut off. */
  maxBacklogBytes: number
  /** Largest request body in bytes. */
  bodyLimit: number
}

/** The defaults of every setting (devnet is decided from the network when unset). */
export const defaultConfig: Readonly<Omit<ServerConfig, 'devnet'>> = {
  host: '127.0.0.1',
  port: 1848,
  data: './data',
  network: 'development',
  profile: 'spec',
  blockDelay: undefined,
  forkRate: 0.05,
  serviceDate: undefined,
  logLevel: 'info',
  keepAlive: 15,
  maxBacklogBytes: 4 * 1024 * 1024,
  bodyLimit: 2 * 1024 * 1024,
}

/** Options accepted by `startServer`: any subset of the configuration. */
export type ServerOptions = { [K in keyof ServerConfig]?: ServerConfig[K] | undefined }

/** Fills the defaults and checks every value. */
export function resolveConfig(options: ServerOptions): ServerConfig {
  const network = options.network ?? defaultConfig.network
  const config: ServerConfig = {
    ...defaultConfig,
    ...definedOnly(options),
    network,
    devnet: options.devnet ?? (network === 'development' || network === 'test-singleton'),
  }
  if (!networkNames.includes(config.network))
    throw new InvalidConfigError(`Expected network to be one of ${networkNames.join(', ')}, received ${JSON.stringify(config.network)}`)
  if (!profileNames.includes(config.profile))
    throw new InvalidConfigError(`Expected profile to be spec or chainweb, received ${JSON.stringify(config.profile)}`)
  if (!Number.isInteger(config.port) || config.port < 0 || config.port > 65535)
    throw new InvalidConfigError(`Expected port to be an integer from 0 to 65535, received ${config.port}`)
  if (config.blockDelay !== undefined && !(config.blockDelay > 0 && Number.isFinite(config.blockDelay)))
    throw new InvalidConfigError(`Expected block delay to be a positive number of seconds, received ${config.blockDelay}`)
  if (!(config.forkRate >= 0 && config.forkRate <= 1))
    throw new InvalidConfigError(`Expected fork rate to be from 0 to 1, received ${config.forkRate}`)
  if (!(config.keepAlive >= 0 && Number.isFinite(config.keepAlive)))
    throw new InvalidConfigError(`Expected keep-alive to be a non-negative number of seconds, received ${config.keepAlive}`)
  if (!logLevels.includes(config.logLevel))
    throw new InvalidConfigError(`Expected log level to be one of ${logLevels.join(', ')}, received ${JSON.stringify(config.logLevel)}`)
  if (config.serviceDate !== undefined && Number.isNaN(Date.parse(config.serviceDate)))
    throw new InvalidConfigError(`Expected service date to be an ISO 8601 date-time, received ${JSON.stringify(config.serviceDate)}`)
  return config
}

function definedOnly(options: ServerOptions): Partial<ServerConfig> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<ServerConfig>
}

/** One command-line flag: its environment variable and its help line. */
interface FlagSpec {
  readonly flag: string
  readonly env: string
  readonly kind: 'string' | 'number' | 'boolean'
  readonly help: string
}

const flagSpecs: readonly FlagSpec[] = [
  { flag: 'host', env: 'WEFT_HOST', kind: 'string', help: 'address to listen on (default 127.0.0.1)' },
  { flag: 'port', env: 'WEFT_PORT', kind: 'number', help: 'port to listen on, 0 for any (default 1848)' },
  { flag: 'data', env: 'WEFT_DATA', kind: 'string', help: 'folder of the chain store (default ./data)' },
  { flag: 'network', env: 'WEFT_NETWORK', kind: 'string', help: `${networkNames.join(' | ')} (default development)` },
  { flag: 'profile', env: 'WEFT_PROFILE', kind: 'string', help: 'spec | chainweb (default spec)' },
  {
    flag: 'devnet',
    env: 'WEFT_DEVNET',
    kind: 'boolean',
    help: 'run the block producer (default on for development and test-singleton); --no-devnet turns it off',
  },
  {
    flag: 'block-delay',
    env: 'WEFT_BLOCK_DELAY',
    kind: 'number',
    help: "producer's seconds between blocks of a chain, fractions allowed (default: the network's)",
  },
  { flag: 'fork-rate', env: 'WEFT_FORK_RATE', kind: 'number', help: "producer's fork probability per block, 0 to 1 (default 0.05)" },
  {
    flag: 'service-date',
    env: 'WEFT_SERVICE_DATE',
    kind: 'string',
    help: 'nodeServiceDate of /info, ISO 8601 (default 90 days after start)',
  },
  { flag: 'log-level', env: 'WEFT_LOG_LEVEL', kind: 'string', help: `${logLevels.join(' | ')} (default info)` },
  {
    flag: 'keep-alive',
    env: 'WEFT_KEEP_ALIVE',
    kind: 'number',
    help: 'idle seconds before an event-stream keep-alive comment, 0 disables (default 15)',
  },
]

/** The text `weft-server --help` prints. */
export function helpText(): string {
  const lines = [
    'Usage: weft-server [options]',
    '',
    'Weft: a read-only query node for a chainweb network.',
    '',
    'Options (each also an environment variable):',
  ]
  for (const spec of flagSpecs) {
    const name =
      spec.kind === 'boolean' ? `--${spec.flag} / --no-${spec.flag}` : `--${spec.flag} <${spec.kind === 'number' ? 'n' : 'value'}>`
    lines.push(`  ${name.padEnd(30)} ${spec.env.padEnd(18)} ${spec.help}`)
  }
  lines.push(`  ${'--help'.padEnd(30)} ${''.padEnd(18)} print this text`)
  return `${lines.join('\n')}\n`
}

/** What the command line asks for: help, or a configuration. */
export type CommandLine = { help: true } | { help: false; options: ServerOptions }

/** Reads flags, then environment variables for flags not given; values are checked by `resolveConfig`. */
export function parseCommandLine(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): CommandLine {
  const options: Record<string, { type: 'string' | 'boolean' }> = { help: { type: 'boolean' } }
  for (const spec of flagSpecs) {
    options[spec.flag] = { type: spec.kind === 'boolean' ? 'boolean' : 'string' }
    if (spec.kind === 'boolean') options[`no-${spec.flag}`] = { type: 'boolean' }
  }
  let values: Record<string, string | boolean | undefined>
  try {
    // `pnpm start -- --flag` and `npm start -- --flag` hand the separator on: a leading `--` is not an argument.
    const args = argv[0] === '--' ? argv.slice(1) : [...argv]
    values = parseArgs({ args, options, strict: true, allowPositionals: false }).values
  } catch (error) {
    throw new InvalidConfigError(`${(error as Error).message}; see --help`, { cause: error })
  }
  if (values.help === true) return { help: true }
  const result: Record<string, unknown> = {}
  for (const spec of flagSpecs) {
    const key = spec.flag.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase())
    let raw: string | boolean | undefined = values[spec.flag]
    if (spec.kind === 'boolean' && values[`no-${spec.flag}`] === true) raw = false
    if (raw === undefined) raw = env[spec.env]
    if (raw === undefined || raw === '') continue
    result[key] = convert(spec, raw)
  }
  return { help: false, options: result as ServerOptions }
}

function convert(spec: FlagSpec, raw: string | boolean): string | number | boolean {
  if (spec.kind === 'boolean') {
    if (typeof raw === 'boolean') return raw
    if (/^(1|true|yes|on)$/i.test(raw)) return true
    if (/^(0|false|no|off)$/i.test(raw)) return false
    throw new InvalidConfigError(`Expected ${spec.env} to be true or false, received ${JSON.stringify(raw)}`)
  }
  const text = String(raw)
  if (spec.kind === 'string') return text
  const value = Number(text)
  if (text.trim() === '' || !Number.isFinite(value))
    throw new InvalidConfigError(`Expected --${spec.flag} (${spec.env}) to be a number, received ${JSON.stringify(text)}`)
  return value
}
