import type { IngestStatus } from '@weft/ingest'
import type { ChainStore } from '@weft/store'
import type { Middleware } from 'koa'
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'
import type { EventHubObserver } from '../streams/hub-options.js'
import type { ChainActivity } from './chain-activity.js'
import { type IngestMetrics, ingestMetricsFeed } from './ingest-metrics.js'

/** A node's Prometheus metrics: a registry of its own (never prom-client's global one). */
export interface NodeMetrics {
  readonly registry: Registry
  /** The ingest work's hooks. */
  readonly ingest: IngestMetrics
  /** What each event hub tells the metrics, by stream. */
  hubObserver(stream: 'header' | 'block'): EventHubObserver
  /** Counts and times every request by method, route and status. */
  middleware(): Middleware
  /** The Prometheus text exposition (format 0.0.4). */
  render(): Promise<string>
  readonly contentType: string
}

const mebibyte = 2 ** 20

// Request durations: from a cached page (sub-millisecond) to a long branch walk; event streams land in +Inf.
const durationBuckets = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

/** What the metrics read when scraped. */
export interface MetricSources {
  readonly store: ChainStore
  readonly activity: ChainActivity
  /** Connected event-stream clients, per stream. */
  subscribers(): { header: number; block: number }
  /** Ingest's status, in upstream mode: read when the metrics are scraped. */
  readonly ingest?: () => IngestStatus
}

/** The metrics of one node over its store, event hubs and chain activity. */
export function createMetrics({ store, activity, subscribers, ingest: ingestStatus }: MetricSources): NodeMetrics {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const registers = [registry]
  const requests = new Counter({
    name: 'weft_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'],
    registers,
  })
  const durations = new Histogram({
    name: 'weft_http_request_duration_seconds',
    help: 'Time from a request to the end of its response (an event stream: its whole life), by method, route pattern and status',
    labelNames: ['method', 'route', 'status'],
    buckets: durationBuckets,
    registers,
  })
  new Gauge({
    name: 'weft_event_stream_subscribers',
    help: 'Connected event-stream clients, by stream',
    labelNames: ['stream'],
    registers,
    collect() {
      const { header, block } = subscribers()
      this.set({ stream: 'header' }, header)
      this.set({ stream: 'block' }, block)
    },
  })
  const eventsSent = new Counter({
    name: 'weft_events_sent_total',
    help: 'Events written to event-stream clients (one per client per event), by stream',
    labelNames: ['stream'],
    registers,
  })
  const delivery = new Histogram({
    name: 'weft_event_stream_delivery_seconds',
    help: 'Seconds from the announcement of events until they were written to every client of the stream, by stream',
    labelNames: ['stream'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  })
  const cutOff = new Counter({
    name: 'weft_event_stream_slow_disconnects_total',
    help: 'Event-stream clients cut off for falling more than the backlog bound behind, by stream',
    labelNames: ['stream'],
    registers,
  })
  new Counter({
    name: 'weft_blocks_inserted_total',
    help: 'Blocks written to the store since start, orphans included, by chain',
    labelNames: ['chain'],
    registers,
    collect() {
      this.reset()
      for (const [chain, count] of activity.inserted()) this.inc({ chain: String(chain) }, count)
    },
  })
  new Gauge({
    name: 'weft_chain_height',
    help: "Height of each chain's head in the node's cut",
    labelNames: ['chain'],
    registers,
    collect() {
      this.reset()
      for (const [chain, header] of store.cut()) this.set({ chain: String(chain) }, header.height)
    },
  })
  new Gauge({
    name: 'weft_cut_height',
    help: "The node's cut height: the sum of its heads' heights",
    registers,
    collect() {
      let sum = 0
      for (const header of store.cut().values()) sum += header.height
      this.set(sum)
    },
  })
  new Gauge({
    name: 'weft_blocks_per_second',
    help: 'Blocks written per second over the last minute',
    registers,
    collect() {
      this.set(activity.blocksPerSecond())
    },
  })
  const engineLevels = () => store.engineStats?.().levels ?? []
  // LevelDB under the store (counted to the MiB): its tree by level, and what it wrote since start.
  // Written bytes against the tables' bytes are its write amplification: what a bulk load costs.
  new Gauge({
    name: 'weft_store_level_files',
    help: "Table files on each level of the store's LevelDB tree",
    labelNames: ['level'],
    registers,
    collect() {
      this.reset()
      for (const level of engineLevels()) this.set({ level: String(level.level) }, level.files)
    },
  })
  new Gauge({
    name: 'weft_store_level_bytes',
    help: "Bytes of the table files on each level of the store's LevelDB tree, to the MiB",
    labelNames: ['level'],
    registers,
    collect() {
      this.reset()
      for (const level of engineLevels()) this.set({ level: String(level.level) }, level.mebibytes * mebibyte)
    },
  })
  new Counter({
    name: 'weft_store_compaction_read_bytes_total',
    help: 'Bytes that LevelDB compactions read since start, to the MiB',
    registers,
    collect() {
      this.reset()
      this.inc(engineLevels().reduce((sum, level) => sum + level.readMiB, 0) * mebibyte)
    },
  })
  new Counter({
    name: 'weft_store_written_bytes_total',
    help: 'Bytes that LevelDB wrote to table files since start (memtable flushes and compactions), to the MiB',
    registers,
    collect() {
      this.reset()
      this.inc(engineLevels().reduce((sum, level) => sum + level.writtenMiB, 0) * mebibyte)
    },
  })
  new Gauge({
    name: 'weft_store_engine_memory_bytes',
    help: "LevelDB's estimate of its own memory: memtables and block cache",
    registers,
    collect() {
      const stats = store.engineStats?.()
      if (stats !== undefined) this.set(stats.memoryBytes)
    },
  })
  const reorgs = new Counter({
    name: 'weft_reorgs_total',
    help: "Heads of the node's cut replaced by another branch, by chain",
    labelNames: ['chain'],
    registers,
  })
  activity.onReorg((reorg) => reorgs.inc({ chain: String(reorg.chain) }))
  const lag = new Gauge({
    name: 'weft_ingest_lag_heights',
    help: 'Heights this node trails its best upstream by, by chain',
    labelNames: ['chain'],
    registers,
    collect() {
      feed?.()
    },
  })
  new Gauge({
    name: 'weft_ingest_blocks_per_second',
    help: 'Blocks ingest wrote per second, over the last ten seconds (upstream mode)',
    registers,
    collect() {
      const status = ingestStatus?.()
      if (status !== undefined) this.set(status.blocksPerSecond)
    },
  })
  const retries = new Counter({
    name: 'weft_upstream_retries_total',
    help: 'Retried requests to an upstream',
    labelNames: ['upstream'],
    registers,
  })
  const states = new Gauge({
    name: 'weft_upstream_state',
    help: "1 for an upstream's current state, 0 for its former ones",
    labelNames: ['upstream', 'state'],
    registers,
  })
  const lastContact = new Gauge({
    name: 'weft_upstream_last_contact_seconds',
    help: 'When an upstream last answered, seconds since the epoch',
    labelNames: ['upstream'],
    registers,
  })
  const refusals = new Counter({
    name: 'weft_ingest_refused_blocks_total',
    help: 'Blocks from upstreams the store refused, by the code of the rule they broke (a block that broke two counts under both)',
    labelNames: ['code'],
    registers,
  })
  const knownStates = new Map<string, Set<string>>()
  const ingest: IngestMetrics = {
    setLag: (chain, heights) => lag.set({ chain: String(chain) }, heights),
    countRetry: (upstream) => retries.inc({ upstream }),
    setUpstreamState: (upstream, state) => {
      const seen = knownStates.get(upstream) ?? new Set<string>()
      knownStates.set(upstream, seen.add(state))
      for (const known of seen) states.set({ upstream, state: known }, known === state ? 1 : 0)
    },
    setLastContact: (upstream, at) => lastContact.set({ upstream }, at / 1000),
    countRefusal: (code) => refusals.inc({ code }),
  }
  const feed = ingestStatus === undefined ? undefined : ingestMetricsFeed(ingest, ingestStatus)
  return {
    registry,
    ingest,
    contentType: registry.contentType,
    render: () => registry.metrics(),
    hubObserver: (stream) => ({
      sent: (clients) => eventsSent.inc({ stream }, clients),
      cutOff: () => cutOff.inc({ stream }),
      delivered: (seconds) => delivery.observe({ stream }, seconds),
    }),
    middleware: () => async (ctx, next) => {
      const started = process.hrtime.bigint()
      ctx.res.once('close', () => {
        const matched = (ctx as { _matchedRoute?: unknown; matched?: Array<{ path: string }> })._matchedRoute
        // A 405 or an OPTIONS answer matched a path but no method: its first layer names the pattern.
        const route =
          typeof matched === 'string' ? matched : ((ctx as { matched?: Array<{ path: string }> }).matched?.[0]?.path ?? 'unmatched')
        const labels = { method: ctx.method, route, status: String(ctx.res.statusCode) }
        requests.inc(labels)
        durations.observe(labels, Number(process.hrtime.bigint() - started) / 1e9)
      })
      await next()
    },
  }
}
