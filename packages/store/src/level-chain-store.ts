import type { Block, Header, Network } from '@weft/block'
import type { HeaderRef } from '@weft/traversal'
import { adoptCut } from './adopt-cut.js'
import { findAncestor } from './ancestor-at.js'
import { BatchWriter } from './batch-writer.js'
import { BlockReads } from './block-reads.js'
import { ChainHeads } from './chain-heads.js'
import type { ChainStore, CutPolicy, RangeQuery, StoredHeader, StoreListener } from './chain-store.js'
import { ChangeFeed } from './change-feed.js'
import type { DamageWatch, StoreDamage } from './damage-watch.js'
import type { DiskGuard, WriteState } from './disk-guard.js'
import { type EngineStats, engineStatsOf } from './engine-stats.js'
import { InvalidCutError, StoreClosedError } from './errors.js'
import { IndexCatchUp } from './index-catch-up.js'
import { IndexKeeper } from './index-keeper.js'
import type { IndexState } from './index-state.js'
import type { ChainDb, RangeItem } from './keys.js'
import { forkChoiceCut, NodeCut } from './node-cut.js'
import { RangeReader, rangeBounds } from './range-reader.js'
import { type RecentHeader, RecentHeaders } from './recent-headers.js'
import { type StoreSnapshot, takeSnapshot } from './snapshot/read-snapshot.js'
import type { TransactionIndex } from './tx-index/index-types.js'
import { LevelTransactionIndex } from './tx-index/transaction-index.js'
import { ValidationPool } from './validation-pool.js'

// Headers kept in memory for the next blocks' parents: a few dozen per chain of any network.
const recentCapacity = 1024

/** How a `LevelChainStore` was opened. */
export interface LevelChainStoreOptions {
  readonly cutPolicy: CutPolicy
  /** Whether every rule is checked (false: a snapshot import, checked in full when reopened). */
  readonly fullRules: boolean
  /** The clock that judges creation times, microseconds since the POSIX epoch. */
  readonly clock: () => number
  /** Worker threads for the hashing checks of bulk inserts (0: inline). */
  readonly validationThreads: number
  /** Whether each write is flushed to the disk before it counts as written. */
  readonly syncWrites: boolean
  /** The adopted cut read from the store, if any (adopted policy only). */
  readonly adopted: ReadonlyMap<number, Header> | undefined
  /** Where the transaction index stands (see `openIndexState`). */
  readonly index: IndexState
  /** Blocks the index catch-up reads from each chain per step. */
  readonly indexCatchUpBlocks?: number | undefined
  /** Runs every write (see `DiskGuard`); closed with the store. */
  readonly guard: DiskGuard
  /** Turns LevelDB's corruption into `STORE_DAMAGED` and remembers the first. */
  readonly damage: DamageWatch
}

/** The `ChainStore` on one classic-level database: reads, the batch writer, the heads, the cut and the change feed put together. */
export class LevelChainStore implements ChainStore {
  readonly network: Network
  readonly index: TransactionIndex
  readonly #db: ChainDb
  readonly #reads: BlockReads
  readonly #recent = new RecentHeaders(recentCapacity)
  readonly #heads: ChainHeads
  readonly #cut: NodeCut
  readonly #feed = new ChangeFeed()
  readonly #writer: BatchWriter
  readonly #pool: ValidationPool
  readonly #adoptedOnce: boolean
  readonly #syncWrites: boolean
  readonly #keeper: IndexKeeper
  readonly #catchUp: IndexCatchUp
  readonly #guard: DiskGuard
  readonly #damage: DamageWatch
  #closed = false
  #closing: Promise<void> | undefined

  constructor(db: ChainDb, network: Network, heads: ReadonlyMap<number, RecentHeader>, options: LevelChainStoreOptions) {
    this.#db = db
    this.network = network
    this.#reads = new BlockReads(db)
    this.#heads = new ChainHeads(new Map([...heads].map(([chain, head]) => [chain, head.header])))
    this.#adoptedOnce = options.adopted !== undefined
    this.#cut = new NodeCut(options.cutPolicy, options.adopted ?? forkChoiceCut(network, this.#heads.heads))
    for (const head of heads.values()) this.#recent.add(head)
    this.#pool = new ValidationPool(options.validationThreads)
    this.#keeper = new IndexKeeper(options.index)
    this.#guard = options.guard
    this.#damage = options.damage
    this.#writer = new BatchWriter({
      db,
      network,
      reads: this.#reads,
      recent: this.#recent,
      heads: this.#heads,
      cut: this.#cut,
      feed: this.#feed,
      judge: options.fullRules ? () => ({ full: true, now: options.clock() }) : () => ({ full: false }),
      pool: this.#pool,
      syncWrites: options.syncWrites,
      index: this.#keeper,
      guard: options.guard,
    })
    this.#syncWrites = options.syncWrites
    this.#catchUp = new IndexCatchUp({
      db,
      pool: this.#pool,
      keeper: this.#keeper,
      exclusive: (task) => this.#writer.exclusive(task),
      guard: options.guard,
      syncWrites: options.syncWrites,
      ...(options.indexCatchUpBlocks === undefined ? {} : { blocksPerChain: options.indexCatchUpBlocks }),
    })
    this.index = new LevelTransactionIndex({
      db,
      network,
      keeper: this.#keeper,
      catchUp: () => this.#catchUp.progress(),
      catchUpDone: () => this.#catchUp.done(),
      context: () => {
        this.#assertOpen()
        return { db, cut: this.#cut.cut, heads: this.#heads.heads, ancestorAt: (hash, height) => this.ancestorAt(hash, height) }
      },
    })
  }

  /** Starts writing the index entries of the blocks stored without them, if any; call once the store is open. */
  startIndexCatchUp(): void {
    this.#catchUp.start()
  }

  /** An adopted store that adopted nothing yet stands on the cut its heads give (the genesis cut of a new store); call once genesis blocks are in. */
  standOnHeadsUntilAdoption(): void {
    if (this.#cut.policy === 'adopted' && !this.#adoptedOnce) this.#cut.move(forkChoiceCut(this.network, this.#heads.heads))
  }

  get cutPolicy(): CutPolicy {
    return this.#cut.policy
  }

  async insert(block: Block): Promise<{ inserted: boolean }> {
    this.#assertOpen()
    return this.#writer.insert(block)
  }

  async insertMany(blocks: readonly Block[]): Promise<number> {
    this.#assertOpen()
    return this.#writer.insertMany(blocks)
  }

  async insertManyJson(texts: readonly Uint8Array[]): Promise<number> {
    this.#assertOpen()
    return this.#writer.insertManyJson(texts)
  }

  async getRefs(hashes: readonly Uint8Array[]): Promise<Array<HeaderRef | undefined>> {
    this.#assertOpen()
    return this.#reads.refs(hashes)
  }

  async ancestorAt(hash: Uint8Array, height: number): Promise<HeaderRef | undefined> {
    this.#assertOpen()
    return findAncestor(this.#db, this.#reads, (key) => this.#recent.get(key), hash, height)
  }

  async getHeader(hash: Uint8Array): Promise<Header | undefined> {
    return (await this.getStoredHeader(hash))?.header
  }

  async getHeaderBinary(hash: Uint8Array): Promise<Buffer | undefined> {
    this.#assertOpen()
    const [record] = await this.#reads.records([hash], 'pool')
    return record?.headerBinary
  }

  async getStoredHeader(hash: Uint8Array): Promise<StoredHeader | undefined> {
    this.#assertOpen()
    const [stored] = await this.#reads.storedHeaders([hash], 'pool')
    return stored === undefined ? undefined : { header: stored.header, headerJson: stored.headerJson }
  }

  async getBlockJson(hash: Uint8Array): Promise<Buffer | undefined> {
    return (await this.getBlocksJson([hash]))[0]
  }

  async getBlocksJson(hashes: readonly Uint8Array[]): Promise<Array<Buffer | undefined>> {
    this.#assertOpen()
    return this.#reads.blocksJson(hashes)
  }

  async getPayloadJson(payloadHash: Uint8Array): Promise<Buffer | undefined> {
    this.#assertOpen()
    return this.#reads.payloadJson(payloadHash)
  }

  range(query: RangeQuery): AsyncIterableIterator<RangeItem> {
    return new RangeReader(this.#db, async () => {
      this.#assertOpen()
      return rangeBounds(this.#db, query)
    })
  }

  async readRangeBlocks(items: readonly RangeItem[]): Promise<Buffer[]> {
    this.#assertOpen()
    return this.#reads.recordsJson(items)
  }

  cut(): ReadonlyMap<number, Header> {
    return this.#cut.cut
  }

  heads(): ReadonlyMap<number, Header> {
    return this.#heads.heads
  }

  async adoptCut(hashes: ReadonlyMap<number, Uint8Array>): Promise<void> {
    this.#assertOpen()
    if (this.#cut.policy !== 'adopted') throw new InvalidCutError("this store's cut follows fork choice; open it with cutPolicy 'adopted'")
    const parts = {
      db: this.#db,
      network: this.network,
      reads: this.#reads,
      recent: this.#recent,
      cut: this.#cut,
      feed: this.#feed,
      syncWrites: this.#syncWrites,
    }
    await this.#writer.exclusive(() => this.#guard.write(() => adoptCut(parts, hashes)))
  }

  snapshot(): StoreSnapshot {
    this.#assertOpen()
    return takeSnapshot(this.#db, this.network, this.#cut.cut)
  }

  engineStats(): EngineStats {
    this.#assertOpen()
    return engineStatsOf(this.#db)
  }

  writeState(): WriteState {
    return this.#guard.state
  }

  damage(): StoreDamage | undefined {
    return this.#damage.damage
  }

  whenWritable(): Promise<void> {
    return this.#guard.whenWritable()
  }

  subscribe(listener: StoreListener): () => void {
    this.#assertOpen()
    return this.#feed.subscribe(listener)
  }

  close(): Promise<void> {
    // A second call waits for the first one's work: either resolves once the database is closed.
    this.#closing ??= this.#close()
    return this.#closing
  }

  async #close(): Promise<void> {
    this.#closed = true
    await this.#guard.close()
    await this.#catchUp.stop()
    await this.#writer.drain()
    this.#feed.clear()
    await this.#pool.close()
    await this.#db.close()
  }

  #assertOpen(): void {
    if (this.#closed) throw new StoreClosedError()
  }
}
