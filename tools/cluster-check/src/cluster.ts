import { chmodSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { basePath } from '@weft/api'
import { backends, isUp, startHaproxy, waitForServers } from './haproxy.js'
import { isOk } from './http.js'
import { startNginx } from './nginx.js'
import { freePort } from './ports.js'
import { type Proc, startNode } from './processes.js'
import { waitFor } from './wait.js'

/** The example HAProxy configuration, run as it is with addresses from the environment. */
const haproxyConfig: string = fileURLToPath(new URL('../../../deploy/haproxy.cfg', import.meta.url))
/** The example nginx cache configuration, a template filled with the run's addresses. */
const nginxTemplate: string = fileURLToPath(new URL('../../../deploy/nginx-cache.conf.template', import.meta.url))
/** The example nginx configuration that publishes a snapshot folder as static files. */
const snapshotsTemplate: string = fileURLToPath(new URL('../../../deploy/nginx-snapshots.conf.template', import.meta.url))

// weft-server's bin, beside the entry point of @weft/server.
const serverCli = fileURLToPath(new URL('./cli.js', import.meta.resolve('@weft/server')))

/** The network every node serves and the base path of its routes (spec profile). */
const network = 'development'
/** The spec profile's base path of `network`. */
export const base = basePath('spec', network)

/** What the topology is started with. */
export interface ClusterOptions {
  /** The run's folder: stores and logs. */
  readonly dir: string
  /** The devnet producer's seconds between blocks of a chain. */
  readonly blockDelay: number
  /** The devnet producer's fork probability per block. */
  readonly forkRate: number
  /** HAProxy's health-check interval (`inter`). */
  readonly checkInter: string
  /** Milliseconds allowed for a node to listen, or to become ready. */
  readonly timeout: number
  /** The replicas' `--final-depth`: pages this far below every head are cached as immutable. */
  readonly finalDepth: number
}

/** One weft-server of the topology. */
export interface ClusterNode {
  readonly name: string
  readonly data: string
  proc: Proc
  url: string
  port: number
}

/** The running topology. */
export interface Cluster {
  readonly devnet: ClusterNode
  readonly ingest: ClusterNode
  readonly replicas: readonly ClusterNode[]
  /** The spare server slot of deploy/haproxy.cfg (`replica4`), down until a replica listens at its port. */
  readonly spare: { readonly name: string; readonly port: number }
  /** HAProxy's frontend: what clients use. */
  readonly lb: string
  /** HAProxy's stats page. */
  readonly stats: string
  readonly haproxy: Proc
  /** nginx's address: the HTTP cache in front of HAProxy. */
  readonly cache: string
  readonly nginx: Proc
  /** Milliseconds from the start to each milestone. */
  readonly timings: Readonly<Record<string, number>>
}

/** The names of the replicas in deploy/haproxy.cfg (its `server` lines). */
export const replicaNames = ['replica1', 'replica2', 'replica3'] as const
/** The spare `server` line of deploy/haproxy.cfg: a replica added later takes its address. */
const spareName = 'replica4'

async function node(options: ClusterOptions, name: string, args: readonly string[], port = 0, log = name): Promise<ClusterNode> {
  const data = join(options.dir, name)
  const flags = ['--host', '127.0.0.1', '--port', String(port), '--data', data, '--network', network, '--log-level', 'info']
  const { proc, url } = await startNode(name, serverCli, [...flags, ...args], join(options.dir, `${log}.log`), options.timeout)
  return { name, data, proc, url, port: Number(new URL(url).port) }
}

/** Waits until the node's GET /ready answers 200. */
export function waitReady(target: ClusterNode, timeout: number): Promise<true> {
  return waitFor(
    `${target.name} (${target.url}) to answer 200 on /ready`,
    async () => ((await isOk(`${target.url}/ready`)) ? true : undefined),
    timeout,
    250,
  )
}

/**
 * Starts a devnet node, an ingest node following it, three replicas following the ingest node and
 * HAProxy in front of the replicas, each waited for in turn (listening, then ready).
 */
export async function startCluster(options: ClusterOptions, progress: (line: string) => void): Promise<Cluster> {
  const start = performance.now()
  const timings: Record<string, number> = {}
  const mark = (name: string): void => {
    timings[name] = Math.round(performance.now() - start)
  }
  const devnet = await node(options, 'devnet', [
    '--devnet',
    '--block-delay',
    String(options.blockDelay),
    '--fork-rate',
    String(options.forkRate),
  ])
  progress(`devnet node at ${devnet.url} (block delay ${options.blockDelay} s, fork rate ${options.forkRate})`)
  const ingest = await node(options, 'ingest', ['--upstream', devnet.url])
  await waitReady(ingest, options.timeout)
  mark('ingestReady')
  progress(`ingest node at ${ingest.url}, ready`)
  const replicas = await Promise.all(replicaNames.map((name) => node(options, name, replicaArgs(options, ingest))))
  await Promise.all(replicas.map((replica) => waitReady(replica, options.timeout)))
  mark('replicasReady')
  progress(`replicas at ${replicas.map((r) => r.url).join(', ')}, ready`)
  const [lbPort, statsPort, sparePort] = [await freePort(), await freePort(), await freePort()]
  const spare = { name: spareName, port: sparePort }
  const env: NodeJS.ProcessEnv = {
    WEFT_LB_BIND: `127.0.0.1:${lbPort}`,
    WEFT_LB_STATS: `127.0.0.1:${statsPort}`,
    WEFT_LB_CHECK_INTER: options.checkInter,
    WEFT_REPLICA_4: `127.0.0.1:${sparePort}`,
    ...Object.fromEntries(replicas.map((replica, i) => [`WEFT_REPLICA_${i + 1}`, `127.0.0.1:${replica.port}`])),
  }
  const haproxy = startHaproxy(haproxyConfig, env, join(options.dir, 'haproxy.log'))
  const stats = `http://127.0.0.1:${statsPort}`
  await waitForServers(stats, replicaNames, isUp, `HAProxy to mark every replica up in ${backends.join(' and ')}`, options.timeout)
  mark('haproxyUp')
  progress(`HAProxy at http://127.0.0.1:${lbPort} (stats ${stats}), every replica up`)
  const lb = `http://127.0.0.1:${lbPort}`
  const { nginx, cache } = await startCache(options, lb)
  mark('nginxUp')
  progress(`nginx (proxy_cache) at ${cache}, in front of HAProxy`)
  return { devnet, ingest, replicas, spare, lb, stats, haproxy, cache, nginx, timings }
}

function replicaArgs(options: ClusterOptions, ingest: ClusterNode): string[] {
  return ['--upstream', ingest.url, '--trust-proxy', '--final-depth', String(options.finalDepth)]
}

// nginx runs its workers as nobody when started as root: they must reach the cache's folder in the run's.
async function startCache(options: ClusterOptions, lb: string): Promise<{ nginx: Proc; cache: string }> {
  const dir = join(options.dir, 'nginx')
  mkdirSync(dir)
  for (const folder of [options.dir, dir]) chmodSync(folder, 0o711)
  const port = await freePort()
  const values = { WEFT_CACHE_BIND: `127.0.0.1:${port}`, WEFT_LB: lb.replace('http://', ''), WEFT_CACHE_PATH: join(dir, 'cache') }
  const nginx = startNginx(nginxTemplate, values, dir)
  const cache = `http://127.0.0.1:${port}`
  await waitFor(`nginx to answer at ${cache}`, async () => ((await isOk(`${cache}/health-check`)) ? true : undefined), options.timeout, 100)
  return { nginx, cache }
}

/** Starts a replica again on its data folder and port (HAProxy knows it by its address). */
export async function restartReplica(options: ClusterOptions, cluster: Cluster, replica: ClusterNode): Promise<void> {
  const again = await node(options, replica.name, replicaArgs(options, cluster.ingest), replica.port, `${replica.name}.restart`)
  replica.proc = again.proc
  replica.url = again.url
}

/** Starts a node following the ingest node that writes a snapshot into `folder` at start and `every` seconds after each. */
export function startPublisher(options: ClusterOptions, cluster: Cluster, folder: string, every: number): Promise<ClusterNode> {
  const args = ['--upstream', cluster.ingest.url, '--snapshot-dir', folder, '--snapshot-every', String(every), '--snapshot-keep', '2']
  return node(options, 'publisher', args)
}

/** nginx serving `folder` as plain static files (deploy/nginx-snapshots.conf.template) on a free port; resolves once its manifest is there. */
export async function startSnapshotServer(options: ClusterOptions, folder: string): Promise<{ proc: Proc; url: string }> {
  const dir = join(options.dir, 'nginx-snapshots')
  mkdirSync(dir)
  chmodSync(dir, 0o711)
  const port = await freePort()
  const values = { WEFT_SNAPSHOTS_BIND: `127.0.0.1:${port}`, WEFT_SNAPSHOTS_DIR: folder }
  const proc = startNginx(snapshotsTemplate, values, dir, 'nginx-snapshots')
  const url = `http://127.0.0.1:${port}`
  await waitFor(
    `nginx to serve ${folder}/manifest.json at ${url}`,
    async () => ((await isOk(`${url}/manifest.json`)) ? true : undefined),
    options.timeout,
  )
  return { proc, url }
}

/** Starts a replica on an empty data folder with `--bootstrap-from manifest`, at the spare slot's address; resolves once it listens (after the import). */
export function startFromSnapshot(options: ClusterOptions, cluster: Cluster, manifest: string): Promise<ClusterNode> {
  return node(options, cluster.spare.name, ['--bootstrap-from', manifest, ...replicaArgs(options, cluster.ingest)], cluster.spare.port)
}
