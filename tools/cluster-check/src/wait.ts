import { setTimeout as sleep } from 'node:timers/promises'
import { ClusterCheckError } from './errors.js'

/**
 * Calls `probe` every `interval` ms until it returns a value other than undefined; throws
 * CLUSTER_TIMEOUT naming `what` after `timeout` ms. A probe that throws counts as not yet.
 */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeout: number, interval = 200): Promise<T> {
  const deadline = performance.now() + timeout
  let last: unknown
  for (;;) {
    try {
      const value = await probe()
      if (value !== undefined) return value
    } catch (error) {
      last = error
    }
    if (performance.now() > deadline) {
      const cause = last instanceof Error ? `; last error: ${last.message}` : ''
      throw new ClusterCheckError('CLUSTER_TIMEOUT', `Expected ${what} within ${timeout} ms, it did not happen${cause}`)
    }
    await sleep(interval)
  }
}
