import { allChains, type Network } from '@weft/block'
import { CorruptStoreError } from './errors.js'
import { blockKeyHigh, blockKeyLow, type ChainDb, heightOfBlockKey, metaKey } from './keys.js'

/**
 * Where the store's transaction index stands. `complete`: every stored block's entries are written
 * (each block's go in the batch that writes it). `disabled`: the store keeps no index (opened with
 * `index: false`); blocks are written without entries and index reads are refused. `catching-up`:
 * new blocks are written with their entries, and the catch-up is writing those of the blocks stored
 * before; on each chain, every block at a height of `below` or more has its entries. `total` is the
 * sum of `below` when the catch-up began (never 0: there is nothing to catch up then), for its progress.
 */
export type IndexState =
  | { readonly state: 'complete' }
  | { readonly state: 'disabled' }
  | { readonly state: 'catching-up'; readonly below: ReadonlyMap<number, number>; readonly total: number }

/** The meta record that keeps the index state, written in the batch that changes it. */
export const indexStateKey = metaKey('index')

/** The bytes of the index state record: JSON, small and rarely written. */
export function encodeIndexState(state: IndexState): Buffer {
  if (state.state !== 'catching-up') return Buffer.from(JSON.stringify({ state: state.state }))
  return Buffer.from(JSON.stringify({ state: state.state, below: Object.fromEntries(state.below), total: state.total }))
}

const isHeight = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0

/** The index state a record holds; a record this code did not write is a corrupt store. */
export function decodeIndexState(value: Buffer): IndexState {
  let parsed: { state?: unknown; below?: unknown; total?: unknown }
  try {
    parsed = JSON.parse(value.toString('utf8')) as typeof parsed
  } catch (error) {
    throw new CorruptStoreError(`the index state record is not JSON: ${value.toString('utf8').slice(0, 80)}`, { cause: error })
  }
  if (parsed?.state === 'complete' || parsed?.state === 'disabled') return { state: parsed.state }
  const below = parsed?.below
  if (parsed?.state === 'catching-up' && typeof below === 'object' && below !== null && isHeight(parsed.total) && parsed.total > 0) {
    const entries = Object.entries(below as Record<string, unknown>)
    if (entries.every(([chain, height]) => /^(0|[1-9][0-9]*)$/.test(chain) && isHeight(height)))
      return {
        state: 'catching-up',
        below: new Map(entries.map(([chain, height]) => [Number(chain), height as number])),
        total: parsed.total,
      }
  }
  throw new CorruptStoreError(`the index state record is not one this store writes: ${value.toString('utf8').slice(0, 80)}`)
}

/** Every chain's highest stored height plus one (0 for a chain with no block): where a catch-up starts. */
export async function catchUpStart(db: ChainDb, network: Network): Promise<Map<number, number>> {
  const below = new Map<number, number>()
  for (const chain of allChains(network)) {
    const [top] = await db
      .keys({ gte: blockKeyLow(chain, 0), lte: blockKeyHigh(chain, Number.MAX_SAFE_INTEGER), reverse: true, limit: 1 })
      .all()
    below.set(chain, top === undefined ? 0 : heightOfBlockKey(top) + 1)
  }
  return below
}

/**
 * The index state a store opens in, written when it changes: a new store starts `complete` (or
 * `disabled`); an existing one asked to keep no index becomes `disabled`; one asked to keep it
 * that did not (disabled, or written before the index existed: no record) starts catching up from
 * the top of every chain.
 */
export async function openIndexState(db: ChainDb, network: Network, options: { index: boolean; created: boolean }): Promise<IndexState> {
  const stored = await db.get(indexStateKey)
  const current = stored === undefined ? undefined : decodeIndexState(stored)
  let state: IndexState
  if (!options.index) state = { state: 'disabled' }
  else if (options.created) state = { state: 'complete' }
  else if (current !== undefined && current.state !== 'disabled') state = current
  else {
    const below = await catchUpStart(db, network)
    let total = 0
    for (const height of below.values()) total += height
    state = total === 0 ? { state: 'complete' } : { state: 'catching-up', below, total }
  }
  if (current === undefined || current.state !== state.state) await db.put(indexStateKey, encodeIndexState(state))
  return state
}
