import type { ChainStore } from '@weft/store'

/**
 * The bound of every wait: only a hang reaches it, since a busy machine makes a test's producer
 * slow (ten times slower is common), never wrong.
 */
export const WAIT_BOUND_MS = 300_000

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Polls `condition` every 20 ms until it holds or `ms` pass; whether it held (for `t.ok(await eventually(...))`). */
export async function eventually(condition: () => boolean | Promise<boolean>, ms = WAIT_BOUND_MS): Promise<boolean> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (await condition()) return true
    await pause(20)
  }
  return condition()
}

/** Resolves once `condition` holds (polled every 20 ms); rejects, naming `what`, when `ms` pass first. */
export async function until(condition: () => boolean | Promise<boolean>, what: string, ms = WAIT_BOUND_MS): Promise<void> {
  if (!(await eventually(condition, ms))) throw new Error(`Expected ${what} within ${ms / 1000} s, but it did not happen`)
}

/**
 * Resolves once `condition` holds of the store, checked now and after each of its events (no
 * polling); rejects, naming `what`, when `ms` pass first.
 */
export function storeReaches(
  store: Pick<ChainStore, 'subscribe'>,
  condition: () => boolean,
  what: string,
  ms = WAIT_BOUND_MS,
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (condition()) return resolve()
    const timer = setTimeout(() => {
      unsubscribe()
      reject(new Error(`Expected the store to reach ${what} within ${ms / 1000} s, but it did not`))
    }, ms)
    const unsubscribe = store.subscribe(() => {
      if (!condition()) return
      clearTimeout(timer)
      unsubscribe()
      resolve()
    })
  })
}

/** The lowest height of the store's cut. */
export const lowestHead = (store: Pick<ChainStore, 'cut'>): number => Math.min(...[...store.cut().values()].map((head) => head.height))
