import type { IngestStatus } from '@weft/ingest'

/**
 * The hooks the ingest work feeds (`@weft/ingest`): how far the node trails its upstreams, how often
 * it retries them, and the state of each. Until it does, these series stay empty.
 */
export interface IngestMetrics {
  /** Heights this node's head of `chain` trails the best upstream's by (`weft_ingest_lag_heights`). */
  setLag(chain: number, heights: number): void
  /** One more retried request to `upstream` (`weft_upstream_retries_total`). */
  countRetry(upstream: string): void
  /**
   * The state of `upstream` (`weft_upstream_state`, 1 for its current state, 0 for the others it had):
   * e.g. `syncing`, `following`, `failing`, `stale`.
   */
  setUpstreamState(upstream: string, state: string): void
  /** When `upstream` last answered, milliseconds since the epoch (`weft_upstream_last_contact_seconds`). */
  setLastContact(upstream: string, at: number): void
  /** One more block the store refused for breaking the rule of `code` (`weft_ingest_refused_blocks_total`). */
  countRefusal(code: string): void
}

/**
 * Feeds the ingest series from one reading of ingest's status: lag per chain, each upstream's state
 * and last contact, and the retries and refused blocks since the last reading. Called when metrics
 * are scraped, so the figures are those of that moment and cost nothing between scrapes.
 */
export function ingestMetricsFeed(hooks: IngestMetrics, status: () => IngestStatus): () => void {
  const retriesSeen = new Map<string, number>()
  const refusalsSeen = new Map<string, number>()
  return () => {
    const now = status()
    for (const [code, count] of now.refusals) {
      for (let seen = refusalsSeen.get(code) ?? 0; seen < count; seen++) hooks.countRefusal(code)
      refusalsSeen.set(code, count)
    }
    for (const [chain, heights] of now.lag) hooks.setLag(chain, heights)
    for (const upstream of now.upstreams) {
      hooks.setUpstreamState(upstream.url, upstream.state)
      if (upstream.lastContact !== undefined) hooks.setLastContact(upstream.url, upstream.lastContact)
      for (let seen = retriesSeen.get(upstream.url) ?? 0; seen < upstream.retries; seen++) hooks.countRetry(upstream.url)
      retriesSeen.set(upstream.url, upstream.retries)
    }
  }
}
