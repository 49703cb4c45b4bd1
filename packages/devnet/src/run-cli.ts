import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { getNetwork, type Network } from '@weft/block'
import { type ChainStore, openStore } from '@weft/store'
import { type NetworkName, networkNames } from '@weft/types'
import cliProgress from 'cli-progress'
import { UsageError } from './errors.js'
import { type FillSummary, fill } from './fill.js'
import { createProducer } from './producer.js'
import { reorg } from './reorg.js'

/** Where the CLI writes, and what tells it to stop (the bin passes the process's own). */
export interface CliIo {
  readonly stdout: NodeJS.WritableStream
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number }
  /** Ends `live` (the bin aborts it on SIGINT and SIGTERM). */
  readonly signal?: AbortSignal
}

/** The text of `weft-devnet --help`. */
export const HELP = `Usage: weft-devnet <command> [options]

Commands:
  fill   mine N blocks as fast as possible into a store, deterministically from a seed
  live   produce blocks in real time until interrupted (or for --duration seconds)
  reorg  replace the best branch of chains by heavier ones forking --depth blocks below their heads

Options:
  --data DIR          the store's folder (created if missing)            [required]
  --network NAME      development | recap-development | test-singleton (the networks
                      a CPU mines; others only if their targets allow) [default: development]
  --blocks N          fill: how many blocks to add, orphans included      [required]
  --chain C           reorg: a chain to reorganise; repeat it for several at once [required]
  --depth N           reorg: blocks below the head where the new branch forks [required]
  --seed S            the seed (fill, reorg: same seed, same blocks; default "weft")
  --fork-rate R       probability from 0 to 1 that a block gets an orphan sibling
                                                                  [default: 0]
  --block-delay S     live: seconds between blocks of one chain  [default: the network's]
  --duration S        live: stop after S seconds
  --version           print the version
  -h, --help          show this help

Examples:
  weft-devnet fill --data ./data --network development --blocks 20000 --seed 1 --fork-rate 0.05
  weft-devnet live --data ./data --block-delay 0.5
  weft-devnet reorg --data ./data --chain 3 --depth 1000
`

const options = {
  data: { type: 'string' },
  network: { type: 'string', default: 'development' },
  blocks: { type: 'string' },
  chain: { type: 'string', multiple: true },
  depth: { type: 'string' },
  seed: { type: 'string' },
  'fork-rate': { type: 'string', default: '0' },
  'block-delay': { type: 'string' },
  duration: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const

/** The devnet's version: its package's own (`weft-devnet --version`). */
export const devnetVersion: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string })
  .version

const parseCliArgs = (argv: readonly string[]) => parseArgs({ args: [...argv], options, allowPositionals: true, strict: true })

/** Runs `weft-devnet` with `argv` (without node and the script); resolves to the exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    let parsed: ReturnType<typeof parseCliArgs>
    try {
      parsed = parseCliArgs(argv)
    } catch (error) {
      throw new UsageError((error as Error).message, { cause: error })
    }
    const { values, positionals } = parsed
    if (values.version === true) {
      io.stdout.write(`${devnetVersion}\n`)
      return 0
    }
    if (values.help === true || positionals[0] === 'help') {
      io.stdout.write(HELP)
      return 0
    }
    const [command, ...extra] = positionals
    if (command === undefined) throw new UsageError('Expected a command (fill, live or reorg), received none')
    if (extra.length > 0) throw new UsageError(`Expected one command, received also ${JSON.stringify(extra.join(' '))}`)
    if (command !== 'fill' && command !== 'live' && command !== 'reorg')
      throw new UsageError(`Expected the command fill, live or reorg, received ${JSON.stringify(command)}`)
    if (values.data === undefined) throw new UsageError("Expected --data DIR, the store's folder")
    const network = parseNetwork(values.network)
    const forkRate = parseNumber('--fork-rate', values['fork-rate'])
    if (command === 'fill') {
      if (values.blocks === undefined) throw new UsageError('Expected --blocks N, how many blocks to add')
      const blocks = parseNumber('--blocks', values.blocks)
      return await withStore(values.data, network, (store) => runFill(store, io, { blocks, forkRate, seed: values.seed }))
    }
    if (command === 'reorg') {
      if (values.chain === undefined) throw new UsageError('Expected --chain C, a chain to reorganise')
      if (values.depth === undefined) throw new UsageError('Expected --depth N, how far below the head the new branch forks')
      const chains = values.chain.map((text) => parseNumber('--chain', text))
      const depth = parseNumber('--depth', values.depth)
      return await withStore(values.data, network, (store) => runReorg(store, io, { chains, depth, seed: values.seed }))
    }
    const blockDelay = values['block-delay'] === undefined ? network.blockDelay : parseNumber('--block-delay', values['block-delay'])
    const duration = values.duration === undefined ? undefined : parseNumber('--duration', values.duration)
    return await withStore(values.data, network, (store) => runLive(store, io, { blockDelay, forkRate, seed: values.seed, duration }))
  } catch (error) {
    // Every error here is an Error; most carry a stable code worth showing (ours, the store's).
    const { message, code } = error as Error & { code?: unknown }
    io.stderr.write(`weft-devnet: ${message}${typeof code === 'string' ? ` [${code}]` : ''}\n`)
    if (error instanceof UsageError) io.stderr.write('Run weft-devnet --help for usage.\n')
    return error instanceof UsageError ? 2 : 1
  }
}

function parseNetwork(name: string): Network {
  try {
    return getNetwork(name as NetworkName)
  } catch (error) {
    throw new UsageError(`Expected --network to be one of ${networkNames.join(', ')}, received ${JSON.stringify(name)}`, { cause: error })
  }
}

function parseNumber(flag: string, text: string): number {
  const value = Number(text)
  if (text.trim() === '' || !Number.isFinite(value))
    throw new UsageError(`Expected ${flag} to be a number, received ${JSON.stringify(text)}`)
  return value
}

async function withStore(path: string, network: Network, body: (store: ChainStore) => Promise<number>): Promise<number> {
  const store = await openStore({ path, network: network.name })
  try {
    return await body(store)
  } finally {
    await store.close()
  }
}

async function runFill(
  store: ChainStore,
  io: CliIo,
  opts: { blocks: number; forkRate: number; seed: string | undefined },
): Promise<number> {
  const started = performance.now()
  // A bar only on a terminal: in a pipe or a log file it would be noise.
  const bar =
    io.stderr.isTTY === true
      ? new cliProgress.SingleBar(
          {
            stream: io.stderr as NodeJS.WriteStream,
            format: 'filling |{bar}| {percentage}% | {value}/{total} blocks | ETA {eta_formatted}',
            hideCursor: true,
            fps: 10,
          },
          cliProgress.Presets.shades_classic,
        )
      : undefined
  bar?.start(opts.blocks, 0)
  let summary: FillSummary
  try {
    summary = await fill(store, {
      blocks: opts.blocks,
      forkRate: opts.forkRate,
      ...(opts.seed === undefined ? {} : { seed: opts.seed }),
      onProgress: (done) => bar?.update(done),
    })
  } finally {
    bar?.stop()
  }
  const seconds = (performance.now() - started) / 1000
  const heights = [...store.heads().values()].map((head) => head.height)
  io.stdout.write(
    `filled ${summary.blocks} blocks (${summary.orphans} orphans) on ${heights.length} chain${heights.length === 1 ? '' : 's'} of ${store.network.name} ` +
      `in ${seconds.toFixed(1)} s (${Math.round(summary.blocks / Math.max(seconds, 1e-3))} blocks/s); ` +
      `heights ${Math.min(...heights)}-${Math.max(...heights)}\n`,
  )
  return 0
}

async function runReorg(
  store: ChainStore,
  io: CliIo,
  opts: { chains: number[]; depth: number; seed: string | undefined },
): Promise<number> {
  const summary = await reorg(store, { chains: opts.chains, depth: opts.depth, ...(opts.seed === undefined ? {} : { seed: opts.seed }) })
  for (const { chain, forkPoint, newHead } of summary.chains) {
    io.stdout.write(
      `chain ${chain}: new branch from height ${forkPoint.height} to ${newHead.height}, head ${newHead.hash.toString('base64url')}\n`,
    )
  }
  io.stdout.write(`stored ${summary.blocks} blocks\n`)
  return 0
}

async function runLive(
  store: ChainStore,
  io: CliIo,
  opts: { blockDelay: number; forkRate: number; seed: string | undefined; duration: number | undefined },
): Promise<number> {
  let failed = false
  let stopWaiting!: () => void
  const stopped = new Promise<void>((resolve) => {
    stopWaiting = resolve
  })
  const producer = createProducer(store, {
    blockDelay: opts.blockDelay,
    forkRate: opts.forkRate,
    ...(opts.seed === undefined ? {} : { seed: opts.seed }),
    onError: (error) => {
      failed = true
      io.stderr.write(`weft-devnet: producing failed: ${(error as Error).message}\n`)
      stopWaiting()
    },
  })
  // After createProducer, which may refuse the options: nothing to undo then.
  const timer = opts.duration === undefined ? undefined : setTimeout(stopWaiting, opts.duration * 1000)
  io.signal?.addEventListener('abort', stopWaiting, { once: true })
  // Aborted while the store opened (a Ctrl-C at start on a busy machine): the listener never fires.
  if (io.signal?.aborted === true) stopWaiting()
  let produced = 0
  const unsubscribe = store.subscribe((event) => {
    if (event.type === 'inserted') produced++
  })
  io.stderr.write(
    `producing on ${store.network.name}, one block per chain every ${opts.blockDelay} s${opts.duration === undefined ? ' (Ctrl-C to stop)' : ''}\n`,
  )
  producer.start()
  await stopped
  clearTimeout(timer)
  io.signal?.removeEventListener('abort', stopWaiting)
  await producer.stop()
  unsubscribe()
  io.stdout.write(`produced ${produced} blocks; heights ${[...store.heads().values()].map((head) => head.height).join(' ')}\n`)
  return failed ? 1 : 0
}
