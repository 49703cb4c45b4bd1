import { parseArgs } from 'node:util'
import { ClusterCheckError } from './errors.js'

/** The settings of one run of the check (all have defaults sized for a shared, loaded machine). */
export interface RunOptions {
  readonly blockDelay: number
  readonly forkRate: number
  readonly checkInter: string
  /** Milliseconds allowed for any one wait (a node to start or catch up, HAProxy to mark a server). */
  readonly timeout: number
  /** The lowest height the compared pages reach (the run waits for the chains to get there). */
  readonly minHeight: number
  readonly limit: number
  readonly chains: readonly number[]
  readonly workers: number
  /** The replicas' `--final-depth`. */
  readonly finalDepth: number
  /** Connections and seconds of each throughput run, and the speedup of the cache wanted at least. */
  readonly benchConnections: number
  readonly benchSeconds: number
  readonly minSpeedup: number
  /** The snapshot publisher's `--snapshot-every` (seconds). */
  readonly snapshotEvery: number
  readonly keep: boolean
  readonly help: boolean
}

/** The text of --help. */
export const usage = `Usage: pnpm cluster:check [-- options]

Starts on 127.0.0.1 a devnet node, an ingest node following it, three replicas following the ingest
node, HAProxy (deploy/haproxy.cfg) in front of the replicas and nginx (deploy/nginx-cache.conf.template,
proxy_cache) in front of HAProxy, then checks pages through HAProxy, a cursor carried between
replicas, a replica killed under load, the same replica restarted, an event stream, cache hits on
deep pages, nothing stale kept, the throughput of the cache against the replicas alone, and a new
replica started with --bootstrap-from from a snapshot a publisher wrote and nginx
(deploy/nginx-snapshots.conf.template) serves.

Options:
  --block-delay <s>     devnet producer's seconds between blocks of a chain (default 1)
  --fork-rate <p>       devnet producer's fork probability per block (default 0.2)
  --check-inter <time>  HAProxy's health-check interval, WEFT_LB_CHECK_INTER (default 500ms)
  --timeout <s>         longest wait for any one step (default 180)
  --min-height <n>      compare pages up to at least this height (default 15)
  --limit <n>           block page size of the comparisons (default 5)
  --chains <list>       chains compared, comma-separated (default 0,10,19)
  --workers <n>         concurrent clients of the steady stream around the kill (default 4)
  --final-depth <n>     the replicas' --final-depth: heights below every head cached as immutable (default 5)
  --bench-connections <n>  connections of each throughput run (default 16)
  --bench-seconds <s>   seconds of each throughput run (default 5)
  --min-speedup <x>     throughput through nginx wanted at least, times the replicas' alone (default 5)
  --snapshot-every <s>  the snapshot publisher's --snapshot-every (default 5)
  --keep                keep the run's folder (stores, logs) instead of deleting it
  -h, --help            print this text
`

function number(name: string, text: string, min: number): number {
  const value = Number(text)
  if (!Number.isFinite(value) || value < min)
    throw new ClusterCheckError('CLUSTER_USAGE', `Expected --${name} to be a number >= ${min}, received ${text}`)
  return value
}

/** Reads the command line. */
export function readOptions(argv: readonly string[]): RunOptions {
  const { values } = parseArgs({
    args: argv.filter((arg) => arg !== '--'),
    options: {
      'block-delay': { type: 'string', default: '1' },
      'fork-rate': { type: 'string', default: '0.2' },
      'check-inter': { type: 'string', default: '500ms' },
      timeout: { type: 'string', default: '180' },
      'min-height': { type: 'string', default: '15' },
      limit: { type: 'string', default: '5' },
      chains: { type: 'string', default: '0,10,19' },
      workers: { type: 'string', default: '4' },
      'final-depth': { type: 'string', default: '5' },
      'bench-connections': { type: 'string', default: '16' },
      'bench-seconds': { type: 'string', default: '5' },
      'min-speedup': { type: 'string', default: '5' },
      'snapshot-every': { type: 'string', default: '5' },
      keep: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  })
  const chains = values.chains.split(',').map((chain) => number('chains', chain, 0))
  if (chains.some((chain) => chain > 19 || !Number.isInteger(chain))) {
    throw new ClusterCheckError(
      'CLUSTER_USAGE',
      `Expected --chains to list chains of the development network (0 to 19), received ${values.chains}`,
    )
  }
  return {
    blockDelay: number('block-delay', values['block-delay'], 0.05),
    forkRate: number('fork-rate', values['fork-rate'], 0),
    checkInter: values['check-inter'],
    timeout: number('timeout', values.timeout, 1) * 1000,
    minHeight: number('min-height', values['min-height'], 2),
    limit: number('limit', values.limit, 1),
    chains,
    workers: number('workers', values.workers, 1),
    finalDepth: number('final-depth', values['final-depth'], 2),
    benchConnections: number('bench-connections', values['bench-connections'], 1),
    benchSeconds: number('bench-seconds', values['bench-seconds'], 1),
    minSpeedup: number('min-speedup', values['min-speedup'], 0),
    snapshotEvery: number('snapshot-every', values['snapshot-every'], 1),
    keep: values.keep,
    help: values.help,
  }
}
