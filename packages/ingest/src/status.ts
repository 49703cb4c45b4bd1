import type { Header } from '@weft/block'
import type { UpstreamStatus } from './upstream-entry.js'

/** What ingest is doing: starting (reaching its upstreams), copying by pages, following, or stopped (failed: a store error ended it). */
export type IngestPhase = 'starting' | 'copying' | 'following' | 'stopped' | 'failed'

/** Ingest's figures at one moment: for readiness (`/ready`), metrics and logs. */
export interface IngestStatus {
  readonly phase: IngestPhase
  /** Within `maxLag` heights of the best upstream's cut on every chain, and an upstream heard from within `staleAfter`. */
  readonly ready: boolean
  /** Chain -> heights the node's cut is behind the best upstream's cut (0 when level or ahead). */
  readonly lag: ReadonlyMap<number, number>
  readonly maxLag: number
  readonly staleAfter: number
  readonly upstreams: readonly UpstreamStatus[]
  /** Blocks written since ingest started. */
  readonly inserted: number
  /** Blocks written per second, over the last ten seconds. */
  readonly blocksPerSecond: number
  /** Failed requests tried again, over every upstream. */
  readonly retries: number
  /** Times the upstream in use changed. */
  readonly failovers: number
  /** Blocks the store refused as invalid. */
  readonly rejected: number
  /** Blocks the store refused, by the code of each rule they broke (`INVALID_TARGET`, ...; a block that broke two counts under both). */
  readonly refusals: ReadonlyMap<string, number>
}

/** What readiness is judged on. */
export interface ReadinessInput {
  readonly cut: ReadonlyMap<number, Header>
  readonly heads: ReadonlyMap<number, Header>
  readonly upstreams: readonly UpstreamStatus[]
  readonly maxLag: number
  readonly staleAfter: number
  readonly now: number
}

/**
 * The lag per chain and readiness. The best upstream's cut is, among the upstreams heard from
 * within `staleAfter` (all of them when none was), the last-read cut with the greatest sum of
 * heights; a chain the node's cut does not hold yet (a graph transition) counts from its best
 * stored block. A demoted or refused upstream's cut does not count (a liar's cut would keep the
 * node unready for good), unless every upstream left is demoted: then the one followed is one.
 */
export function readiness(input: ReadinessInput): { ready: boolean; lag: Map<number, number> } {
  const fresh = input.upstreams.filter(
    (upstream) => upstream.lastContact !== undefined && input.now - upstream.lastContact <= input.staleAfter,
  )
  const best = bestCut(trusted(fresh.length > 0 ? fresh : input.upstreams))
  const lag = new Map<number, number>()
  for (const [chain, height] of best ?? []) {
    const own = input.cut.get(chain)?.height ?? input.heads.get(chain)?.height ?? 0
    lag.set(chain, Math.max(0, height - own))
  }
  const ready = fresh.length > 0 && best !== undefined && [...lag.values()].every((heights) => heights <= input.maxLag)
  return { ready, lag }
}

// The upstreams whose cuts count: neither refused nor demoted, or, when none is, the demoted ones.
function trusted(upstreams: readonly UpstreamStatus[]): UpstreamStatus[] {
  const usable = upstreams.filter((upstream) => upstream.state !== 'refused')
  const healthy = usable.filter((upstream) => upstream.state !== 'demoted')
  return healthy.length > 0 ? healthy : usable
}

function bestCut(upstreams: readonly UpstreamStatus[]): ReadonlyMap<number, number> | undefined {
  let best: ReadonlyMap<number, number> | undefined
  let bestSum = -1
  for (const { cut } of upstreams) {
    if (cut === undefined) continue
    const sum = [...cut.values()].reduce((total, height) => total + height, 0)
    if (sum > bestSum) {
      best = cut
      bestSum = sum
    }
  }
  return best
}
