import { readFileSync } from 'node:fs'
import type { Server } from 'node:http'
import { createProducer } from '@weft/devnet'
import type { Ingest } from '@weft/ingest'
import { type ChainStore, deviceReadAhead } from '@weft/store'
import { type Logger, pino } from 'pino'
import { createApp } from './app.js'
import { resolveConfig, type ServerConfig, type ServerOptions } from './config/config.js'
import { InFlight } from './http/in-flight.js'
import type { NodeContext } from './node-context.js'
import { type AdminServer, startAdminServer } from './operator/admin-server.js'
import { bootstrapStore } from './operator/bootstrap.js'
import { trackChainActivity } from './operator/chain-activity.js'
import { openNodeStore } from './operator/data-folder.js'
import { createMetrics, type NodeMetrics } from './operator/metrics.js'
import { readAheadWarning } from './operator/read-ahead-check.js'
import { type SnapshotSchedule, startSnapshotSchedule } from './operator/snapshot-publisher.js'
import { logDamage, logWriteState, registerStoreStateMetrics } from './operator/store-state.js'
import { BlockWaits } from './pact/block-waits.js'
import { profiles } from './profile/profiles.js'
import { reportedRelease } from './profile/release.js'
import { BranchContinuations } from './read/branch-continuations.js'
import { AnnouncementLog } from './streams/announcement-log.js'
import { DepthFeeds } from './streams/depth-feeds.js'
import { EventHub } from './streams/event-hub.js'
import { feedUpdateStreams } from './streams/update-streams.js'
import { ClientLimits } from './traffic/client-limits.js'
import { createHttpServer } from './traffic/http-server.js'
import { ReadSlots } from './traffic/read-slots.js'
import { registerTrafficMetrics } from './traffic/traffic-metrics.js'
import { inUpstreamMode, startIngest } from './upstream-mode.js'

/** A node that is listening. */
export interface RunningServer {
  /** `http://host:port`, e.g. `http://127.0.0.1:1848`. */
  readonly url: string
  readonly port: number
  /** The admin listener's `http://host:port` (snapshots), when `adminPort` was given. */
  readonly adminUrl: string | undefined
  readonly config: ServerConfig
  /** The node's open store (tests insert through it to drive the event streams). */
  readonly store: ChainStore
  /** The node's Prometheus metrics (`GET /metrics`), with the hooks the ingest work feeds. */
  readonly metrics: NodeMetrics
  /** Connected event-stream clients, per stream. */
  eventClients(): { header: number; block: number }
  /** Branch walks kept for the request that continues them (see README, branch paging). */
  branchContinuations(): number
  /** `/listen` requests waiting for a block. */
  listenWaits(): number
  /** Upstream mode: what follows the upstreams (`status()`: readiness, lag per chain, blocks/s, retries, per-upstream state). */
  readonly ingest: Ingest | undefined
  /** Stops accepting, ends the event streams, stops the producer, waits for running handlers and closes the store; idempotent. */
  close(): Promise<void>
}

/** Milliseconds shutdown waits for requests to finish before cutting their connections, and again for their handlers. */
export const CLOSE_GRACE_MS = 2000

/** The node software's version: the package's own (the chainweb profile reports the emulated release's instead). */
export const nodeVersion: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string })
  .version

// Without a configured date, the next service date is 90 days after start, at midnight UTC.
function defaultServiceDate(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 90)).toISOString()
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      const address = server.address()
      resolve(typeof address === 'object' && address !== null ? address.port : port)
    })
  })
}

/** Opens the store, starts the producer when configured, and listens; resolves once connections are accepted. */
export async function startServer(options: ServerOptions = {}, logger?: Logger): Promise<RunningServer> {
  const config = resolveConfig(options)
  const log = logger ?? pino({ level: config.logLevel, base: { name: 'weft-server' } })
  const upstreamMode = inUpstreamMode(config)
  // An empty data folder takes a published snapshot first; a folder with a store is left as it is.
  if (config.bootstrapFrom !== undefined)
    await bootstrapStore({ url: config.bootstrapFrom, data: config.data, network: config.network, log })
  const store = await openNodeStore({
    path: config.data,
    network: config.network,
    cutPolicy: upstreamMode ? 'adopted' : 'fork-choice',
    syncWrites: config.syncWrites,
    index: config.index,
    onWriteState: (state) => logWriteState(log, state),
    onDamage: (damage) => logDamage(log, damage),
    // A store written by an earlier Weft is checked by the rules it did not check, once (see the root README, "Upgrading").
    onRulesCheck: ({ height, top, blocks }) =>
      log.info(
        { height: Math.min(height, top), top, blocks },
        'checking the stored blocks by the rules of chainweb-node 3.2, written by an earlier Weft',
      ),
  })
  const readAhead = readAheadWarning(config.data, await deviceReadAhead(config.data))
  if (readAhead !== undefined) log.warn(readAhead.fields, readAhead.message)
  let ingest: Ingest | undefined
  try {
    // An upstream of another network stops the start here, before the node listens.
    ingest = upstreamMode ? await startIngest(config, store, log) : undefined
  } catch (error) {
    await store.close()
    throw error
  }
  const activity = trackChainActivity(store)
  const metrics = createMetrics({
    store,
    activity,
    subscribers: () => ({ header: node.headerUpdates.size, block: node.blockUpdates.size }),
    ...(ingest === undefined ? {} : { ingest: () => (ingest as Ingest).status() }),
  })
  const hubOptions = { keepAliveMs: config.keepAlive * 1000, maxBacklogBytes: config.maxBacklogBytes }
  const network = store.network
  const rules = profiles[config.profile]
  const release = reportedRelease(rules, config.emulate, network, nodeVersion)
  const node: NodeContext = {
    store,
    network,
    rules,
    config,
    nodeVersion: release.version,
    release,
    chains: new Set(network.graphs[0]?.graph.keys() ?? []),
    serviceDate: config.serviceDate ?? defaultServiceDate(new Date()),
    headerUpdates: new EventHub({ ...hubOptions, observer: metrics.hubObserver('header') }),
    blockUpdates: new EventHub({ ...hubOptions, observer: metrics.hubObserver('block') }),
    announcements: new AnnouncementLog(config.streamRetention),
    depthFeeds: new DepthFeeds({
      store,
      rules,
      hubOptions,
      retention: config.streamRetention,
      maxPendingPayloads: config.maxPendingPayloads,
      logger: log,
    }),
    branchWalks: new BranchContinuations(),
    blockWaits: new BlockWaits(store),
    requests: new InFlight(),
    limits: new ClientLimits(config),
    readSlots: new ReadSlots(config.concurrentReads),
    ...(ingest === undefined ? {} : { ingest }),
  }
  const { headerUpdates, blockUpdates, announcements, limits, requests, readSlots } = node
  registerTrafficMetrics(metrics.registry, { limits, requests, readSlots })
  registerStoreStateMetrics(metrics.registry, store)
  const stopFeed = feedUpdateStreams(
    { store, rules, headerUpdates, blockUpdates, announcements, maxPendingPayloads: config.maxPendingPayloads },
    log,
  )
  const app = createApp(node, log, { metrics, activity })
  const server = createHttpServer({ timeouts: config, limits, rules, nodeVersion: node.nodeVersion }, log, app.callback())
  let port: number
  let admin: AdminServer | undefined
  try {
    port = await listen(server, config.port, config.host)
    // Before the producer starts: a node whose admin address is taken stops here, whole.
    if (config.adminPort !== undefined) admin = await startAdminServer(store, config.adminHost, config.adminPort, log)
  } catch (error) {
    // Closes the listener, if it was listening (a server that was not answers with an error, ignored).
    await new Promise((resolve) => server.close(resolve))
    activity.close()
    await ingest?.stop()
    await stopFeed()
    await node.depthFeeds.close()
    await node.branchWalks.close()
    node.blockWaits.close()
    await store.close()
    throw error
  }
  const producer = config.devnet
    ? createProducer(store, {
        blockDelay: config.blockDelay ?? network.blockDelay,
        forkRate: config.forkRate,
        onError: (error) => log.error({ err: error }, 'the devnet producer stopped'),
      })
    : undefined
  producer?.start()
  const snapshots: SnapshotSchedule | undefined =
    config.snapshotDir === undefined
      ? undefined
      : startSnapshotSchedule({
          store,
          dir: config.snapshotDir,
          everyMs: config.snapshotEvery * 1000,
          keep: config.snapshotKeep,
          log,
          ready: ingest === undefined ? undefined : () => (ingest as Ingest).status().ready,
        })
  if (producer !== undefined)
    log.info({ blockDelay: config.blockDelay ?? network.blockDelay, forkRate: config.forkRate }, 'devnet producer started')
  let closing: Promise<void> | undefined
  const close = async (): Promise<void> => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()))
    node.headerUpdates.close()
    node.blockUpdates.close()
    node.blockWaits.close()
    server.closeIdleConnections()
    await admin?.close()
    await snapshots?.stop()
    await producer?.stop()
    await ingest?.stop()
    await stopFeed()
    await node.depthFeeds.close()
    // Requests still running get a moment to finish before their connections are cut.
    const grace = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS).unref()
    await closed
    clearTimeout(grace)
    // A handler outlives its connection when the client left or the grace cut it: the store stays
    // open until the last one is done, or for one more grace period at most.
    const settled = await node.requests.idle(CLOSE_GRACE_MS)
    if (!settled) log.warn({ handlers: node.requests.count }, 'closing the store under request handlers still running')
    activity.close()
    await node.branchWalks.close()
    await store.close()
  }
  const host = config.host.includes(':') ? `[${config.host}]` : config.host
  return {
    url: `http://${host}:${port}`,
    port,
    adminUrl: admin?.url,
    config,
    store,
    metrics,
    eventClients: () => ({ header: node.headerUpdates.size, block: node.blockUpdates.size }),
    branchContinuations: () => node.branchWalks.size,
    listenWaits: () => node.blockWaits.size,
    ingest,
    close: () => (closing ??= close()),
  }
}
