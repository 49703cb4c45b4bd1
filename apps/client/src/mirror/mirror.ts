import { NetworkMismatchError } from '@weft/store'
import type { WeftClient } from '../index.js'
import { ChainCopier } from './chain-copier.js'
import type { MirrorOptions, MirrorResult, MirrorStore } from './types.js'

/**
 * Copies every block of every chain, orphans included, from the upstream into the store (each
 * block validated by the store's insert), then follows the upstream unless `once` is set.
 * Resumable: each chain restarts at its local head's height less `resumeMargin`; inserts are
 * idempotent. The store must be of the upstream's network; the caller opens and closes it.
 */
export async function mirror(upstream: WeftClient, store: MirrorStore, options: MirrorOptions = {}): Promise<MirrorResult> {
  const { network, profile } = await upstream.target()
  if (store.network.name !== network) throw new NetworkMismatchError(network, store.network.name)
  const copier = new ChainCopier(upstream, store, profile, options)
  if (options.once) await copier.copyAll()
  else await copier.follow()
  return { network, inserted: copier.inserted }
}
