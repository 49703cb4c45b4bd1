import { devnetNetworks } from '@weft/devnet'
import type { IngestOptions } from '@weft/ingest'
import { networkNames, profileNames } from '@weft/types'
import { emulatedReleases } from '../profile/release.js'
import { choice, dateTime, number, settingsObject, switchKind, text, urlList, type ValueKind } from './config-kinds.js'
import { snapshotOptions } from './snapshot-options.js'
import { trafficOptions } from './traffic-options.js'

/** What every setting says: where it is read from, what it may be, and its help. */
export interface OptionBase<T> {
  /** Command-line flag without its dashes (`block-delay`); absent: a `startServer` option only. */
  readonly flag?: string
  /** Environment variable read when the flag is not given; an empty variable counts as unset. */
  readonly env?: string
  /** How the value is read from text and checked. */
  readonly kind: ValueKind<T>
  /** What the setting is, for --help. */
  readonly help: string
}

/** A setting with a fixed default. */
export interface ValueOption<T> extends OptionBase<T> {
  readonly default: T
  /** How --help words the default, when the value itself would not say it well. */
  readonly defaultText?: string
}

/** A setting that may stay absent: its value type includes undefined. */
export interface AbsentOption<T> extends OptionBase<T> {
  readonly default: undefined
  /** What stands in for the absent value, for --help ("the network's"). */
  readonly defaultText: string
}

/** A setting whose default is computed from the settings above it in the table. */
export interface ComputedOption<T> extends OptionBase<T> {
  readonly defaultFrom: (resolved: Readonly<Record<string, unknown>>) => T
  /** How the default is computed, for --help. */
  readonly defaultText: string
}

/** Any entry of the table. */
export type OptionSpec<T> = ValueOption<T> | AbsentOption<T> | ComputedOption<T>

// The value type comes from the kind alone: a default is checked against it, never widens it.
const option = <T>(spec: ValueOption<NoInfer<T>> & { kind: ValueKind<T> }): ValueOption<T> => spec
const absentOption = <T>(spec: AbsentOption<T>): AbsentOption<T> => spec
const computedOption = <T>(spec: ComputedOption<T>): ComputedOption<T> => spec

/** The `@weft/ingest` options a `startServer` caller may tune beyond the flags (times in milliseconds). */
export type IngestTuning = Partial<
  Pick<
    IngestOptions,
    'pollInterval' | 'requestTimeout' | 'streamIdleTimeout' | 'retryDelay' | 'maxRetryDelay' | 'demoteFor' | 'windowBlocks' | 'resumeMargin'
  >
>

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const

/**
 * Every setting of the node, in --help order. The command line, the environment, the defaults, the checks
 * of `startServer`'s options, the configuration's type and the help text are all derived from this table:
 * a new setting is a new entry.
 */
export const serverOptions = {
  host: option({ flag: 'host', env: 'WEFT_HOST', kind: text('<address>'), default: '127.0.0.1', help: 'address to listen on' }),
  port: option({
    flag: 'port',
    env: 'WEFT_PORT',
    kind: number('an integer from 0 to 65535', (value) => Number.isInteger(value) && value >= 0 && value <= 65535),
    default: 1848,
    help: 'port to listen on, 0 for any',
  }),
  data: option({ flag: 'data', env: 'WEFT_DATA', kind: text('<folder>'), default: './data', help: 'folder of the chain store' }),
  network: option({
    flag: 'network',
    env: 'WEFT_NETWORK',
    kind: choice(networkNames),
    default: 'development',
    help: `network to serve: ${networkNames.join(' | ')}`,
  }),
  profile: option({
    flag: 'profile',
    env: 'WEFT_PROFILE',
    kind: choice(profileNames),
    default: 'spec',
    help: `wire profile: ${profileNames.join(' | ')}`,
  }),
  emulate: option({
    flag: 'emulate',
    env: 'WEFT_EMULATE',
    kind: choice(emulatedReleases, '<release>'),
    default: '3.2',
    help: `chainweb profile: the chainweb-node release to answer as: ${emulatedReleases.join(' | ')}`,
  }),
  upstream: option({
    flag: 'upstream',
    env: 'WEFT_UPSTREAM',
    kind: urlList(),
    default: [],
    defaultText: 'none',
    help: 'follow this chainweb-node or Weft (repeatable; the variable comma-separated; the producer is then off)',
  }),
  devnet: computedOption({
    flag: 'devnet',
    env: 'WEFT_DEVNET',
    kind: switchKind(),
    defaultFrom: (resolved) =>
      (resolved.upstream as readonly string[]).length === 0 && (devnetNetworks as readonly unknown[]).includes(resolved.network),
    defaultText: 'on for development, recap-development and test-singleton without --upstream',
    help: 'run the block producer; --no-devnet turns it off',
  }),
  blockDelay: absentOption({
    flag: 'block-delay',
    env: 'WEFT_BLOCK_DELAY',
    kind: number('a positive number of seconds', (value) => value > 0 && Number.isFinite(value), '<seconds>'),
    default: undefined,
    defaultText: "the network's",
    help: "producer's seconds between blocks of a chain, fractions allowed",
  }),
  forkRate: option({
    flag: 'fork-rate',
    env: 'WEFT_FORK_RATE',
    kind: number('a number from 0 to 1', (value) => value >= 0 && value <= 1, '<p>'),
    default: 0.05,
    help: "producer's fork probability per block, 0 to 1",
  }),
  serviceDate: absentOption({
    flag: 'service-date',
    env: 'WEFT_SERVICE_DATE',
    kind: dateTime(),
    default: undefined,
    defaultText: '90 days after start, midnight UTC',
    help: 'nodeServiceDate of /info, ISO 8601',
  }),
  maxLag: option({
    flag: 'max-lag',
    env: 'WEFT_MAX_LAG',
    kind: number('a non-negative integer number of heights', (value) => Number.isSafeInteger(value) && value >= 0, '<heights>'),
    default: 3,
    help: 'upstream mode: /ready is 200 within this many heights of the best upstream cut on every chain',
  }),
  staleAfter: option({
    flag: 'stale-after',
    env: 'WEFT_STALE_AFTER',
    kind: number('a positive number of seconds', (value) => value > 0 && Number.isFinite(value), '<seconds>'),
    default: 120,
    help: 'upstream mode: /ready is 503 when no upstream was heard from for this long',
  }),
  ingestConcurrency: option({
    flag: 'ingest-concurrency',
    env: 'WEFT_INGEST_CONCURRENCY',
    kind: number('a positive integer', (value) => Number.isSafeInteger(value) && value > 0),
    default: 4,
    help: 'upstream mode: requests to the upstream in flight at most',
  }),
  readSlots: option({
    kind: number('a positive integer', (value) => Number.isSafeInteger(value) && value > 0),
    default: 4,
    help: 'upstream mode: requests served at once while ingest is behind (startServer only)',
  }),
  ingest: option({
    kind: settingsObject<IngestTuning>('an object of @weft/ingest options (poll interval, timeouts, backoff)'),
    default: {},
    help: 'finer ingest settings for tests and tools (startServer only)',
  }),
  logLevel: option({
    flag: 'log-level',
    env: 'WEFT_LOG_LEVEL',
    kind: choice(logLevels, '<level>'),
    default: 'info',
    help: `log level: ${logLevels.join(' | ')}`,
  }),
  keepAlive: option({
    flag: 'keep-alive',
    env: 'WEFT_KEEP_ALIVE',
    kind: number('a non-negative number of seconds', (value) => value >= 0 && Number.isFinite(value), '<seconds>'),
    default: 15,
    help: 'idle seconds before an event-stream keep-alive comment, 0 disables',
  }),
  finalDepth: option({
    flag: 'final-depth',
    env: 'WEFT_FINAL_DEPTH',
    kind: number('a non-negative integer number of heights', (value) => Number.isSafeInteger(value) && value >= 0, '<heights>'),
    // chainweb-node's Pact service refuses to rewind further than 480 blocks (its defaultReorgLimit).
    default: 480,
    help: 'heights below every head of the cut past which pages are final: cached as immutable',
  }),
  maxBacklogBytes: option({
    kind: number('a non-negative integer number of bytes', (value) => Number.isSafeInteger(value) && value >= 0),
    default: 4 * 1024 * 1024,
    help: 'bytes an event-stream client may have pending before it is cut off',
  }),
  streamRetention: option({
    flag: 'stream-retention',
    env: 'WEFT_STREAM_RETENTION',
    kind: number(
      'an integer number of events from 0 to 1000000',
      (value) => Number.isSafeInteger(value) && value >= 0 && value <= 1_000_000,
    ),
    // 0.8 to 1.6 KB each (measured: chainweb and spec event data): 8 to 16 MB, four hours of mainnet's announcements.
    default: 10_000,
    help: 'event-stream announcements kept for clients that resume with Last-Event-ID (0 to 1000000)',
  }),
  bodyLimit: option({
    kind: number('a non-negative integer number of bytes', (value) => Number.isSafeInteger(value) && value >= 0),
    default: 2 * 1024 * 1024,
    help: 'largest request body in bytes',
  }),
  adminHost: option({
    flag: 'admin-host',
    env: 'WEFT_ADMIN_HOST',
    kind: text('<address>'),
    default: '127.0.0.1',
    help: 'address of the admin listener (snapshots), when --admin-port is given',
  }),
  adminPort: absentOption({
    flag: 'admin-port',
    env: 'WEFT_ADMIN_PORT',
    kind: number('an integer from 0 to 65535', (value) => Number.isInteger(value) && value >= 0 && value <= 65535),
    default: undefined,
    defaultText: 'off',
    help: 'port of the admin listener: GET /snapshot streams a snapshot of the store (0 for any)',
  }),
  index: option({
    flag: 'index',
    env: 'WEFT_INDEX',
    kind: switchKind(),
    default: true,
    help: 'keep the transaction index (/poll, /listen, /txs/*); --no-index leaves it out and those routes answer INDEX_DISABLED',
  }),
  listenTimeout: option({
    kind: number('a positive number of seconds', (value) => value > 0 && Number.isFinite(value)),
    default: 180,
    help: "seconds /listen waits for its request key before 504, as the node's (startServer only)",
  }),
  ...trafficOptions,
  ...snapshotOptions,
} as const

/** The name of a setting: a key of `serverOptions`. */
export type OptionName = keyof typeof serverOptions

/** The value type of an entry of the table. */
export type OptionValue<O> = O extends AbsentOption<infer T> ? T | undefined : O extends OptionBase<infer T> ? T : never

/** The settings in table order, each with its name. */
export const optionEntries = Object.entries(serverOptions) as ReadonlyArray<[OptionName, OptionSpec<unknown>]>

/** How --help words a setting's default. */
export function defaultTextOf(spec: OptionSpec<unknown>): string {
  // Absent and computed defaults must word themselves (their types require it); a fixed one may.
  return spec.defaultText ?? String((spec as ValueOption<unknown>).default)
}

/** How messages name a setting: its flag in words (`fork rate`), else its name. */
export function labelOf(name: OptionName, spec: OptionSpec<unknown>): string {
  return spec.flag?.replace(/-/g, ' ') ?? name
}
