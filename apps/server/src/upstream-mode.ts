import { createIngest, type Ingest } from '@weft/ingest'
import type { ChainStore } from '@weft/store'
import type { Logger } from 'pino'
import type { ServerConfig } from './config/config.js'

/** Whether the configuration follows upstreams (`--upstream`): the store then takes the upstream's cut. */
export function inUpstreamMode(config: ServerConfig): boolean {
  return config.upstream.length > 0
}

/**
 * Starts following the configured upstreams into `store` (opened with the adopted cut policy):
 * resolves once every upstream that answers was checked (one of another network rejects, which
 * stops the node's start), while the copy and the following run on in the background.
 */
export async function startIngest(config: ServerConfig, store: ChainStore, logger: Logger): Promise<Ingest> {
  const ingest = createIngest({
    ...config.ingest,
    store,
    upstreams: config.upstream,
    concurrency: config.ingestConcurrency,
    maxLag: config.maxLag,
    staleAfter: Math.round(config.staleAfter * 1000),
    logger: logger.child({ component: 'ingest' }),
  })
  await ingest.start()
  ingest.done.catch((error: unknown) => logger.error({ err: error }, 'ingest stopped: the node no longer follows its upstreams'))
  return ingest
}
