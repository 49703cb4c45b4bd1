import assert from 'node:assert/strict'
import type { NetworkName } from '@weft/types'
import type { ChainStore, CutPolicy, StoreEvent } from '../chain-store.js'

/**
 * How the suite asks for a store: its cut policy, and whether it takes blocks as a snapshot import
 * does (`importing`: hashes and parent links checked, every other rule left to the check that
 * follows before the store is used; the HeaderSource tests store a tree no braid holds). Without it,
 * every rule is checked.
 */
export interface SuiteStoreOptions {
  readonly cutPolicy: CutPolicy
  readonly importing?: boolean
}

/**
 * The parts of the contract an implementation declares it has; the suite tests each one as declared
 * (the part, or that the store says it does not have it), so nothing is left out unsaid.
 */
export interface StoreCapabilities {
  /**
   * `open(network, { importing: true })` gives a store that takes blocks as a snapshot import does
   * (hashes and parent links checked). The suite's HeaderSource tests need it: their tree of three
   * chains growing apart is no braid. Without it they are not registered.
   */
  readonly importing: boolean
  /** `snapshot()` gives a point-in-time view (the cut and every block of that moment); without it, `snapshot()` must throw. */
  readonly snapshots: boolean
  /**
   * `index` keeps the transaction index (its own tests are the implementation's); without it,
   * `index.status()` is `disabled` and every lookup rejects with `INDEX_DISABLED`.
   */
  readonly transactionIndex: boolean
}

/** Opens a fresh, empty store of `network` (its genesis blocks only) with `options`; the suite closes it. */
export type ChainStoreFactory = (network: NetworkName, options: SuiteStoreOptions) => Promise<ChainStore>

// Most contract tests mine lines on one chain: test-singleton's, the one network where a line is a valid braid.
const lineStore: SuiteStoreOptions = { cutPolicy: 'fork-choice' }

/** Opens a fresh store, runs `body`, and closes the store whatever happened (closing twice is allowed). */
export async function withStore(
  open: ChainStoreFactory,
  body: (store: ChainStore) => Promise<void>,
  network: NetworkName = 'test-singleton',
  options: SuiteStoreOptions = lineStore,
) {
  const store = await open(network, options)
  try {
    await body(store)
  } finally {
    await store.close()
  }
}

/** Every item of an async iterable. */
export async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = []
  for await (const item of source) items.push(item)
  return items
}

/** The events the store announces from now on. */
export function recordEvents(store: ChainStore): StoreEvent[] {
  const events: StoreEvent[] = []
  store.subscribe((event) => events.push(event))
  return events
}

/** A hash as base64url, for messages and comparisons. */
export const text = (hash: Uint8Array): string => Buffer.from(hash).toString('base64url')

/** What `promise` rejected with; fails when it resolved. */
export async function rejection(promise: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  let caught: unknown
  await assert.rejects(promise, (error) => {
    caught = error
    return error instanceof Error
  })
  return caught as Error & Record<string, unknown>
}

/** The codes of an `InvalidBlockError`'s violations. */
export function violationCodes(error: Record<string, unknown>): string[] {
  return (error.violations as Array<{ code: string }>).map((violation) => violation.code)
}
