import { type ParseArgsConfig, parseArgs } from 'node:util'
import type { NetworkName, Profile } from '@weft/types'
import cliProgress from 'cli-progress'
import { type ClientOptions, createClient, type PageQuery } from './client.js'
import { UsageError, WeftClientError, WeftHttpError } from './errors.js'
import { mirror } from './mirror.js'

/** Where the CLI reads and writes: the process's streams in `cli.ts`, buffers in tests. */
export interface CliIo {
  stdout: NodeJS.WritableStream
  stderr: NodeJS.WritableStream & { isTTY?: boolean }
  /** Stops streaming commands (follow, mirror) cleanly, e.g. on SIGINT. */
  signal?: AbortSignal
  env?: Readonly<Record<string, string | undefined>>
}

type Options = NonNullable<ParseArgsConfig['options']>
type Values = Record<string, string | boolean | string[] | undefined>

interface Command {
  summary: string
  usage: string
  options: Options
  run(values: Values, io: CliIo): Promise<void>
}

const defaultUrl = 'http://127.0.0.1:1848'

const connectionOptions: Options = {
  url: { type: 'string', short: 'u' },
  network: { type: 'string' },
  profile: { type: 'string' },
  validate: { type: 'boolean' },
}
const connectionHelp = `Connection:
  -u, --url URL        the node's root URL (default $WEFT_URL or ${defaultUrl})
      --network NAME   mainnet01, testnet04, development or test-singleton (default: the node's, from /info)
      --profile NAME   spec or chainweb (default: the node's, from its version header)
      --validate       check every response against the @weft/types schemas
  -h, --help           show this help`

const pageOptions: Options = {
  chain: { type: 'string', short: 'c' },
  minheight: { type: 'string' },
  maxheight: { type: 'string' },
  limit: { type: 'string', short: 'n' },
  'page-size': { type: 'string' },
  next: { type: 'string' },
}
const pageHelp = `  -c, --chain N        the chain (required)
      --minheight N    lowest height
      --maxheight N    highest height
  -n, --limit N        print at most N blocks (default: all)
      --page-size N    blocks asked per request (default: the server's, 360)
      --next CURSOR    start at this cursor (inclusive:<hash> or exclusive:<hash>)`

const commands: Record<string, Command> = {
  info: {
    summary: 'print the node information (GET /info)',
    usage: `Usage: weft info [options]

Prints the node's /info object as one JSON line.

${connectionHelp}`,
    options: connectionOptions,
    async run(values, io) {
      await writeLine(io.stdout, await clientFrom(values, io).info())
    },
  },

  health: {
    summary: 'check that the node is up (GET /health-check)',
    usage: `Usage: weft health [options]

Prints {"healthy":true,"message":"Health check OK."} and exits 0 when the node answers 200;
otherwise prints the error on stderr and exits 1.

${connectionHelp}`,
    options: connectionOptions,
    async run(values, io) {
      const message = (await clientFrom(values, io).health()).trim()
      await writeLine(io.stdout, { healthy: true, message })
    },
  },

  blocks: {
    summary: 'print the blocks of a chain, ascending, orphans included (GET block)',
    usage: `Usage: weft blocks --chain N [options]

Prints every matching full block as one JSON line, ascending by height, following the cursors.

${pageHelp}

${connectionHelp}`,
    options: { ...connectionOptions, ...pageOptions },
    async run(values, io) {
      const client = clientFrom(values, io)
      const { chain, query, limit } = pageArguments(values)
      let printed = 0
      if (limit === 0) return
      for await (const block of client.blocks(chain, query)) {
        await writeLine(io.stdout, block)
        if (++printed === limit) return
      }
    },
  },

  branch: {
    summary: 'print the ancestors of upper bounds that are not ancestors of lower bounds (POST branch)',
    usage: `Usage: weft branch --chain N --upper HASH [--upper HASH...] [--lower HASH...] [options]

Prints every block of the branch as one JSON line, descending by height, following the cursors.

      --upper HASH     an upper bound (repeatable, at least one)
      --lower HASH     a lower bound (repeatable)
${pageHelp}

${connectionHelp}`,
    options: { ...connectionOptions, ...pageOptions, upper: { type: 'string', multiple: true }, lower: { type: 'string', multiple: true } },
    async run(values, io) {
      const client = clientFrom(values, io)
      const { chain, query, limit } = pageArguments(values)
      const upper = (values.upper as string[] | undefined) ?? []
      if (upper.length === 0) throw new UsageError('--upper is required')
      const lower = (values.lower as string[] | undefined) ?? []
      let printed = 0
      if (limit === 0) return
      for await (const block of client.branch(chain, { upper, lower }, query)) {
        await writeLine(io.stdout, block)
        if (++printed === limit) return
      }
    },
  },

  follow: {
    summary: 'print header updates as they happen, or only confirmed headers with --depth',
    usage: `Usage: weft follow [--depth N] [--chain N...] [--count N] [options]

Without --depth: prints the data of every header update event ({header, powHash, target, txCount})
as one JSON line, reconnecting whenever the stream ends.
With --depth N: prints each header object once it is N blocks deep on its chain's winning branch,
per chain in height order, without gaps or orphans, across reorganisations and reconnections.
Runs until interrupted (SIGINT, SIGTERM) or --count lines were printed.

      --depth N        confirmation depth (0 = the head)
  -c, --chain N        follow this chain only (repeatable; default all)
      --count N        exit after N lines

${connectionHelp}`,
    options: {
      ...connectionOptions,
      depth: { type: 'string' },
      chain: { type: 'string', short: 'c', multiple: true },
      count: { type: 'string' },
    },
    async run(values, io) {
      const client = clientFrom(values, io)
      const chains = ((values.chain as string[] | undefined) ?? []).map((text) => integer('--chain', text))
      const count = values.count === undefined ? Infinity : integer('--count', values.count as string)
      const controller = new AbortController()
      const signal = io.signal ? AbortSignal.any([io.signal, controller.signal]) : controller.signal
      const lines =
        values.depth === undefined
          ? filterChains(client.headerUpdates({ signal }), chains)
          : client.confirmedHeaders({
              depth: integer('--depth', values.depth as string),
              signal,
              ...(chains.length > 0 ? { chains } : {}),
            })
      let printed = 0
      if (count === 0) return
      for await (const line of lines) {
        await writeLine(io.stdout, line)
        if (++printed >= count) break
      }
      controller.abort()
    },
  },

  mirror: {
    summary: 'copy every block of an upstream node into a local store, then follow it',
    usage: `Usage: weft mirror --from URL --data DIR [--once] [options]

Copies every block of every chain, orphans included, from the upstream node into the store in DIR,
each block validated on insert. Resumes where an earlier run stopped. Then follows the upstream
(header updates) until interrupted, or exits after the copy with --once.
Prints one JSON line per copied page ({"event":"page",...}), one when the copy is done
({"event":"synced",...}) and, while following, one per new block ({"event":"inserted",...}).
A progress bar is drawn on stderr when it is a terminal.

      --from URL           the upstream node's root URL (required)
      --data DIR           the local store's folder (required)
      --once               exit after the copy
      --page-size N        blocks asked per request (default 360)
      --resume-margin N    heights re-read below each local head on resume (default 16)
      --network NAME       the upstream's network (default: from its /info)
      --profile NAME       the upstream's profile (default: from its version header)
      --validate           check every upstream response against the schemas
  -h, --help               show this help`,
    options: {
      from: { type: 'string' },
      data: { type: 'string' },
      once: { type: 'boolean' },
      'page-size': { type: 'string' },
      'resume-margin': { type: 'string' },
      network: connectionOptions.network as Options[string],
      profile: connectionOptions.profile as Options[string],
      validate: { type: 'boolean' },
    },
    async run(values, io) {
      const from = values.from as string | undefined
      const data = values.data as string | undefined
      if (!from) throw new UsageError('--from is required')
      if (!data) throw new UsageError('--data is required')
      const bar = io.stderr.isTTY
        ? new cliProgress.SingleBar(
            { stream: io.stderr, format: 'mirror [{bar}] {percentage}% | {value}/{total} heights | eta {eta_formatted}' },
            cliProgress.Presets.shades_classic,
          )
        : undefined
      const writes: Promise<void>[] = []
      try {
        await mirror({
          from,
          data,
          once: values.once === true,
          validate: values.validate === true,
          ...networkAndProfile(values),
          ...(values['page-size'] ? { pageSize: integer('--page-size', values['page-size'] as string, 1) } : {}),
          ...(values['resume-margin'] ? { resumeMargin: integer('--resume-margin', values['resume-margin'] as string) } : {}),
          ...(io.signal ? { signal: io.signal } : {}),
          onEvent: (event) => {
            if (event.event === 'synced') bar?.stop()
            writes.push(writeLine(io.stdout, event))
          },
          ...(bar
            ? {
                onProgress: (done: number, total: number) => {
                  if (done === 0) bar.start(total, 0)
                  else bar.update(done)
                },
              }
            : {}),
        })
      } finally {
        bar?.stop()
      }
      await Promise.all(writes)
    },
  },
}

const mainUsage = `Usage: weft <command> [options]

The Weft command-line client: query a node, follow its chains, mirror it.
Output is NDJSON (one JSON value per line) on stdout; errors go to stderr.

Commands:
${Object.entries(commands)
  .map(([name, command]) => `  ${name.padEnd(8)} ${command.summary}`)
  .join('\n')}

Run \`weft <command> --help\` for the options of a command.`

/** Runs the `weft` command line; resolves to the process exit code (0 ok, 1 failure, 2 bad usage). */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    await writeText(name === undefined ? io.stderr : io.stdout, `${mainUsage}\n`)
    return name === undefined ? 2 : 0
  }
  const command = commands[name]
  if (!command) {
    await writeText(io.stderr, `weft: unknown command ${JSON.stringify(name)}\n\n${mainUsage}\n`)
    return 2
  }
  try {
    const { values } = parseArgs({
      args: [...rest],
      options: { ...command.options, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    })
    if (values.help) {
      await writeText(io.stdout, `${command.usage}\n`)
      return 0
    }
    await command.run(values, io)
    return 0
  } catch (error) {
    if (error instanceof UsageError || isParseArgsError(error)) {
      await writeText(io.stderr, `weft ${name}: ${(error as Error).message}\n\n${command.usage}\n`)
      return 2
    }
    if (error instanceof WeftClientError) {
      const status = error instanceof WeftHttpError ? ` ${error.status}` : ''
      await writeText(io.stderr, `weft ${name}: ${error.message} [${error.code}${status}]\n`)
      return 1
    }
    const coded = error as { code?: unknown; message?: unknown }
    await writeText(
      io.stderr,
      `weft ${name}: ${String(coded.message ?? error)}${typeof coded.code === 'string' ? ` [${coded.code}]` : ''}\n`,
    )
    return 1
  }
}

function clientFrom(values: Values, io: CliIo) {
  const options: ClientOptions = {
    url: (values.url as string | undefined) ?? io.env?.WEFT_URL ?? defaultUrl,
    validate: values.validate === true,
    ...networkAndProfile(values),
  }
  return createClient(options)
}

function networkAndProfile(values: Values): { network?: NetworkName; profile?: Profile } {
  const network = values.network as string | undefined
  const profile = values.profile as string | undefined
  if (network !== undefined && !['mainnet01', 'testnet04', 'development', 'test-singleton'].includes(network)) {
    throw new UsageError(`--network must be mainnet01, testnet04, development or test-singleton, got ${JSON.stringify(network)}`)
  }
  if (profile !== undefined && profile !== 'spec' && profile !== 'chainweb') {
    throw new UsageError(`--profile must be spec or chainweb, got ${JSON.stringify(profile)}`)
  }
  return { ...(network ? { network: network as NetworkName } : {}), ...(profile ? { profile: profile as Profile } : {}) }
}

function pageArguments(values: Values): { chain: number; query: PageQuery; limit: number } {
  if (values.chain === undefined) throw new UsageError('--chain is required')
  const chain = integer('--chain', values.chain as string)
  const limit = values.limit === undefined ? Infinity : integer('--limit', values.limit as string)
  const query: PageQuery = {}
  if (values.minheight !== undefined) query.minheight = integer('--minheight', values.minheight as string)
  if (values.maxheight !== undefined) query.maxheight = integer('--maxheight', values.maxheight as string)
  if (values.next !== undefined) query.next = values.next as string
  if (values['page-size'] !== undefined) query.limit = integer('--page-size', values['page-size'] as string, 1)
  // A small --limit needs no larger pages than itself.
  else if (limit < 360) query.limit = Math.max(1, limit)
  return { chain, query, limit }
}

function integer(flag: string, text: string, minimum = 0): number {
  const value = /^\d+$/.test(text) ? Number(text) : NaN
  if (!Number.isSafeInteger(value) || value < minimum)
    throw new UsageError(`${flag} must be an integer >= ${minimum}, got ${JSON.stringify(text)}`)
  return value
}

async function* filterChains<T extends { header: { chainId: number } }>(
  updates: AsyncIterable<T>,
  chains: readonly number[],
): AsyncGenerator<T> {
  for await (const update of updates) {
    if (chains.length === 0 || chains.includes(update.header.chainId)) yield update
  }
}

function isParseArgsError(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_')
}

/** Writes one JSON value as a line, waiting when the stream asks for it (a slow pipe). */
function writeLine(stream: NodeJS.WritableStream, value: unknown): Promise<void> {
  return writeText(stream, `${JSON.stringify(value)}\n`)
}

function writeText(stream: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise((resolve) => {
    if (stream.write(text)) resolve()
    else stream.once('drain', resolve)
  })
}
