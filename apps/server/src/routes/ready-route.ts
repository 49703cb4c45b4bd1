import type Router from '@koa/router'
import type { Ingest, IngestStatus } from '@weft/ingest'
import type { ChainStore, StoreDamage, WriteState } from '@weft/store'
import { setFreshness } from '../http/caching.js'
import { writeJson } from '../http/responses.js'
import { type StoreWriteStatus, storeWriteStatus } from '../operator/store-state.js'

/** The body of `GET /ready`. */
export interface ReadyBody {
  readonly ready: boolean
  /** Whether the store takes writes: a full disk makes the node unready (reads go on). */
  readonly store: StoreWriteStatus
  /** A damaged table file met by a read since the node started (`STORE_DAMAGED`, LevelDB's words), else null: the node is unready until repaired. */
  readonly damaged: { readonly detail: string; readonly since: string } | null
  /** `devnet` (the node produces its own blocks), or the ingest phase: `starting`, `copying`, `following`, `stopped`, `failed`. */
  readonly phase: string
  /** Chain id -> heights behind the best upstream's cut. */
  readonly lag: Record<string, number>
  readonly maxLag: number | null
  /** Seconds. */
  readonly staleAfter: number | null
  readonly upstreams: ReadonlyArray<{
    url: string
    state: string
    lastContact: string | null
    lastError: { code: string; message: string; at: string } | null
    retries: number
  }>
}

const iso = (ms: number | undefined): string | null => (ms === undefined ? null : new Date(ms).toISOString())

/** The readiness answer of a node: ready once open in devnet mode, else as ingest judges it; never while the store takes no writes. */
export function readyBody(status: IngestStatus | undefined, writeState: WriteState, damage?: StoreDamage): ReadyBody {
  const store = storeWriteStatus(writeState)
  const damaged = damage === undefined ? null : { detail: damage.detail, since: new Date(damage.since).toISOString() }
  const fit = store.writable && damaged === null
  if (status === undefined) return { ready: fit, store, damaged, phase: 'devnet', lag: {}, maxLag: null, staleAfter: null, upstreams: [] }
  return {
    ready: status.ready && fit,
    store,
    damaged,
    phase: status.phase,
    lag: Object.fromEntries([...status.lag].sort(([a], [b]) => a - b).map(([chain, heights]) => [String(chain), heights])),
    maxLag: status.maxLag,
    staleAfter: status.staleAfter / 1000,
    upstreams: status.upstreams.map((upstream) => ({
      url: upstream.url,
      state: upstream.state,
      lastContact: iso(upstream.lastContact),
      lastError:
        upstream.lastError === undefined
          ? null
          : { code: upstream.lastError.code, message: upstream.lastError.message, at: new Date(upstream.lastError.at).toISOString() },
      retries: upstream.retries,
    })),
  }
}

/** GET /ready at the host root, both profiles: 200 when fit to serve, else 503 (behind its upstream, its disk full, or a table file found damaged), each with the JSON body above (Accept is ignored, as a load balancer's probe expects). */
export function registerReadyRoute(router: Router, ingest: Ingest | undefined, store: ChainStore): void {
  router.get('/ready', (ctx) => {
    const body = readyBody(ingest?.status(), store.writeState(), store.damage())
    ctx.status = body.ready ? 200 : 503
    setFreshness(ctx, 'private')
    writeJson(ctx, Buffer.from(JSON.stringify(body)))
  })
}
