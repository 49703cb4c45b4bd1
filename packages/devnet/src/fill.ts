import type { Block } from '@weft/block'
import type { ChainStore } from '@weft/store'
import { BraidMiner, loadWindows } from './braid-miner.js'
import { InvalidDevnetOptionError } from './errors.js'
import { createRandom } from './random.js'

/** Options of `fill`. */
export interface FillOptions {
  /** How many blocks to add, orphans included. */
  blocks: number
  /** Same seed on a store in the same state: the same blocks. Default `"weft"`. */
  seed?: string | number
  /** Probability in [0, 1] that a block gets a losing sibling (an orphan). Default 0. */
  forkRate?: number
  /** Called after each batch is stored, the last time with done = total; once with (0, 0) for no blocks. */
  onProgress?(done: number, total: number): void
}

/** What `fill` added. */
export interface FillSummary {
  /** Blocks stored, orphans included. */
  blocks: number
  /** Of those, blocks that lost a fork. */
  orphans: number
}

/** The seed fill uses when none is given: fill is deterministic by default. */
export const DEFAULT_SEED = 'weft'
// Blocks per insertMany: the store validates each of its batches of 256 while the one before is
// being written, so a call of several batches overlaps hashing with writing; 1,024 blocks (a few
// megabytes) still bound memory.
const BATCH = 1024

/**
 * Mines `blocks` braided blocks as fast as possible on top of the store's cut and stores them.
 * Deterministic: the chain to grow, payloads, nonces and forks come from the seed, and creation
 * times from the heights (`childCreationTime`), so the same seed on a fresh store gives the same hashes.
 */
export async function fill(store: ChainStore, options: FillOptions): Promise<FillSummary> {
  const { blocks, seed = DEFAULT_SEED, forkRate = 0, onProgress } = options
  if (!Number.isSafeInteger(blocks) || blocks < 0) throw new InvalidDevnetOptionError('blocks', 'a non-negative integer', blocks)
  checkForkRate(forkRate)
  checkSeed(seed)
  const random = createRandom(seed)
  const miner = new BraidMiner(store.network, await loadWindows(store), { random, forkRate })
  let done = 0
  let orphans = 0
  let batch: Block[] = []
  while (done < blocks) {
    const chain = random.pick(miner.ready())
    const mined = miner.mine(chain, blocks - done >= 2)
    batch.push(...mined)
    done += mined.length
    orphans += mined.length - 1
    if (batch.length >= BATCH || done === blocks) {
      await store.insertMany(batch)
      batch = []
      onProgress?.(done, blocks)
    }
  }
  if (blocks === 0) onProgress?.(0, 0)
  return { blocks: done, orphans }
}

/** Throws unless `forkRate` is a probability. */
export function checkForkRate(forkRate: number): void {
  if (!(typeof forkRate === 'number' && forkRate >= 0 && forkRate <= 1))
    throw new InvalidDevnetOptionError('forkRate', 'a number from 0 to 1', forkRate)
}

/** Throws unless `seed` is a string or a finite number. */
export function checkSeed(seed: unknown): void {
  if (!(typeof seed === 'string' || (typeof seed === 'number' && Number.isFinite(seed))))
    throw new InvalidDevnetOptionError('seed', 'a string or a finite number', seed)
}
