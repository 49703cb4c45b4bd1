import { randomUUID } from 'node:crypto'
import type { Block } from '@weft/block'
import { type ChainStore, StoreFullError } from '@weft/store'
import { BraidMiner, loadWindows } from './braid-miner.js'
import { InvalidDevnetOptionError } from './errors.js'
import { checkForkRate, checkSeed } from './fill.js'
import { createRandom } from './random.js'
import { type ReorgOptions, type ReorgSummary, reorg } from './reorg.js'

/** Options of `createProducer`. */
export interface ProducerOptions {
  /** Seconds between two blocks of one chain, on average; fractions allowed. */
  blockDelay: number
  /** Probability in [0, 1] that a block gets a losing sibling (an orphan). Default 0. */
  forkRate?: number
  /** Seeds payloads, nonces, forks and timing jitter; default a random one. */
  seed?: string | number
  /** Called once if producing fails (e.g. the store refuses a block); the producer then halts. */
  onError?(error: unknown): void
  /**
   * Called when the store's disk is full (`STORE_FULL`): the producer does not halt, it waits for
   * the store to take writes again and mines on from the store's cut (the blocks refused are dropped).
   */
  onStoreFull?(error: StoreFullError): void
}

/** A live block producer. */
export interface Producer {
  /** Starts producing from the store's current cut; a no-op once started or stopped. */
  start(): void
  /** Stops for good and waits for the block being stored; rejects with the failure that halted it, if any and no onError was given. */
  stop(): Promise<void>
  /**
   * Replaces the best branch of some chains by heavier ones forking `depth` blocks below their heads (see
   * `reorg`), between two blocks of a running producer, which then mines on the new branches. Its seed
   * is drawn from the producer's. Rejects with the reorg's error, which does not halt the producer.
   */
  reorg(options: Omit<ReorgOptions, 'seed'>): Promise<ReorgSummary>
}

/**
 * Produces blocks on every chain of the store's network in real time: each chain about one block
 * per `blockDelay` (jittered by ±50%), as soon as its neighbours allow it. Creation times are the
 * devnet's (`childCreationTime`: one network block delay per height), not the wall clock's, so that
 * the difficulty adjustment keeps the easy target whatever `blockDelay` is. It resumes from the
 * store's cut, so a restarted producer continues the same chains on the same data folder.
 */
export function createProducer(store: ChainStore, options: ProducerOptions): Producer {
  const { blockDelay, forkRate = 0, seed = randomUUID(), onError, onStoreFull } = options
  if (!(typeof blockDelay === 'number' && Number.isFinite(blockDelay) && blockDelay > 0)) {
    throw new InvalidDevnetOptionError('blockDelay', 'a positive number of seconds', blockDelay)
  }
  checkForkRate(forkRate)
  checkSeed(seed)
  const random = createRandom(seed)
  const delayMs = blockDelay * 1000
  let running: Promise<void> | undefined
  let stopping = false
  let failure: { error: unknown } | undefined
  let timer: NodeJS.Timeout | undefined
  let wake: (() => void) | undefined
  // Reorgs asked of a running producer, done between two blocks.
  const reorgs: Array<{ options: Omit<ReorgOptions, 'seed'>; resolve(summary: ReorgSummary): void; reject(error: unknown): void }> = []
  const reorgNow = (options: Omit<ReorgOptions, 'seed'>): Promise<ReorgSummary> => reorg(store, { ...options, seed: random.hex(16) })

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      wake = resolve
      timer = setTimeout(resolve, Math.max(0, ms))
    })

  const jitteredDelay = () => delayMs * (0.5 + random.next())

  async function run(): Promise<void> {
    const windows = await loadWindows(store)
    const miner = new BraidMiner(store.network, windows, { random, forkRate })
    const start = performance.now()
    // First blocks spread over one delay rather than all at once.
    const due = new Map(miner.chains().map((chain) => [chain, start + delayMs * random.next()]))
    while (!stopping) {
      for (let asked = reorgs.shift(); asked !== undefined; asked = reorgs.shift()) {
        await reorgNow(asked.options).then(asked.resolve, asked.reject)
        miner.reset(await loadWindows(store))
      }
      // Stopped during a reorg: no block after it, and no sleep on a timer the stop can no longer clear.
      if (stopping) break
      const now = performance.now()
      // Every chain that is due, earliest first, mined into one insert: when the store or its
      // listeners (event streams to many clients) take longer than the time between blocks, the
      // blocks that fell due meanwhile go in together, and the producer keeps its rate.
      const blocks: Block[] = []
      let earliest = Infinity
      for (;;) {
        let next: number | undefined
        earliest = Infinity
        for (const chain of miner.ready()) {
          const at = due.get(chain)!
          earliest = Math.min(earliest, at)
          if (at <= now && (next === undefined || at < due.get(next)!)) next = chain
        }
        if (next === undefined) break
        blocks.push(...miner.mine(next))
        due.set(next, now + jitteredDelay())
      }
      if (blocks.length === 0) {
        // A chain that is due but waits for a neighbour is picked up once that neighbour grew.
        await sleep(earliest - now)
        continue
      }
      try {
        await store.insertMany(blocks)
      } catch (error) {
        if (!(error instanceof StoreFullError)) throw error
        onStoreFull?.(error)
        await Promise.race([store.whenWritable(), new Promise<void>((resolve) => (wake = resolve))])
        if (stopping) break
        miner.reset(await loadWindows(store))
      }
    }
  }

  return {
    start() {
      if (running !== undefined || stopping) return
      running = run().catch((error: unknown) => {
        failure = { error }
        // A halted producer does no more reorgs: those still asked of it fail with what halted it.
        for (let asked = reorgs.shift(); asked !== undefined; asked = reorgs.shift()) asked.reject(error)
        onError?.(error)
      })
    },
    async stop() {
      stopping = true
      clearTimeout(timer)
      wake?.()
      await running
      // Reorgs asked while it stopped are done on the quiet store.
      for (let asked = reorgs.shift(); asked !== undefined; asked = reorgs.shift())
        await reorgNow(asked.options).then(asked.resolve, asked.reject)
      if (failure !== undefined && onError === undefined) throw failure.error
    },
    reorg(options) {
      if (running === undefined || stopping || failure !== undefined) return reorgNow(options)
      return new Promise((resolve, reject) => {
        reorgs.push({ options, resolve, reject })
        clearTimeout(timer)
        wake?.()
      })
    },
  }
}
