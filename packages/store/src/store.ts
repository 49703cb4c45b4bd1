import {
  type Block,
  decodeHeader,
  encodeHeader,
  genesisBlocks,
  genesisHeight,
  getNetwork,
  type Header,
  headerToJsonText,
  type Network,
  payloadToJsonText,
  txCount,
  validateBlock,
} from '@weft/block'
import { hashMapKey } from '@weft/hash-text'
import type { HeaderRef, HeaderSource } from '@weft/traversal'
import type { NetworkName } from '@weft/types'
import { ClassicLevel } from 'classic-level'
import {
  CorruptStoreError,
  CursorNotFoundError,
  InvalidBlockError,
  ListenerError,
  MissingParentError,
  NetworkMismatchError,
  StoreClosedError,
  StoreOpenError,
} from './errors.js'
import {
  blockKey,
  blockKeyHigh,
  blockKeyLow,
  chainOfHeadKey,
  decodeBlockRecord,
  decodeHashRecord,
  encodeBlockRecord,
  encodeHashRecord,
  type HashRecord,
  hashIndexKey,
  headKey,
  headPrefix,
  metaKey,
  payloadKey,
  type RangeItem,
} from './keys.js'
import { type RangeBounds, RangeReader } from './range-reader.js'
import { type RecentHeader, RecentHeaders } from './recent-headers.js'
import { WriteQueue } from './write-queue.js'

/** Options of `openStore`. */
export interface OpenStoreOptions {
  /** Folder of the classic-level database; created when missing. */
  path: string
  /** The one network this store keeps; a folder keeps the network it was created for. */
  network: NetworkName
}

/** A decoded header with the spec-profile JSON bytes stored beside it. */
export interface StoredHeader {
  header: Header
  headerJson: Buffer
}

/** An ascending range of one chain, by (height, raw hash). */
export interface RangeQuery {
  chain: number
  minheight?: number
  maxheight?: number
  /** Start at (inclusive) or just after (exclusive) this block; it must be stored on `chain`. */
  start?: { hash: Uint8Array; inclusive: boolean }
}

/** A block that newly joined the winning branch of its chain. */
export interface JoinedBlock {
  header: Header
  headerJson: Buffer
  txCount: number
}

/** What the change feed announces. */
export type StoreEvent =
  | { type: 'inserted'; header: Header; headerJson: Buffer; txCount: number }
  | { type: 'best'; chain: number; head: Header; joined: JoinedBlock[] }

/** A synchronous change-feed listener. */
export type StoreListener = (event: StoreEvent) => void

/** The chain store of one network. */
export interface ChainStore extends HeaderSource {
  readonly network: Network
  insert(block: Block): Promise<{ inserted: boolean }>
  insertMany(blocks: readonly Block[]): Promise<number>
  getHeader(hash: Uint8Array): Promise<Header | undefined>
  getHeaderBinary(hash: Uint8Array): Promise<Buffer | undefined>
  getStoredHeader(hash: Uint8Array): Promise<StoredHeader | undefined>
  getBlockJson(hash: Uint8Array): Promise<Buffer | undefined>
  getBlocksJson(hashes: readonly Uint8Array[]): Promise<Array<Buffer | undefined>>
  getPayloadJson(payloadHash: Uint8Array): Promise<Buffer | undefined>
  range(query: RangeQuery): AsyncIterable<RangeItem>
  readRangeBlocks(items: readonly RangeItem[]): Promise<Buffer[]>
  cut(): ReadonlyMap<number, Header>
  subscribe(listener: StoreListener): () => void
  close(): Promise<void>
}

type Db = ClassicLevel<Buffer, Buffer>
type PutOperation = { type: 'put'; key: Buffer; value: Buffer } | { type: 'put'; key: Buffer; value: string; valueEncoding: 'utf8' }
// What became of one block of a batch: true when written, false when it was stored already.
type Outcome = boolean | Error
// An insert() call waiting in a group of concurrent ones that are written together.
// A validated batch, ready to write: see #prepareBatch.
interface PreparedBatch {
  // The blocks to write, by hashMapKey of their hash, in order.
  readonly staged: ReadonlyMap<string, JoinedBlock>
  // mapKeys of the payloads this batch writes.
  readonly payloads: ReadonlySet<string>
  readonly operations: PutOperation[]
  readonly events: StoreEvent[]
  readonly outcomes: Outcome[]
  // The cut once the batch is written.
  readonly heads: ReadonlyMap<number, Header>
}
interface PendingInsert {
  readonly block: Block
  resolve(result: { inserted: boolean }): void
  reject(error: unknown): void
}

// Blocks of one insertMany call written per batch: large enough to amortise a write, small enough
// that a batch stays a few hundred kilobytes.
const blocksPerBatch = 256
const blockJsonOpen = Buffer.from('{"header":')
const blockJsonMiddle = Buffer.from(',"payloadWithOutputs":')
const blockJsonClose = Buffer.from('}')
const layoutVersion = '1'
// LevelDB's memtable (4 MiB by default): a larger one means fewer, larger level-0 files and less
// compaction while blocks stream in (bulk loads measured about 14% less CPU per block with 32 MiB),
// at the cost of up to two such tables in memory and a longer log replay on open.
const writeBufferSize = 32 * 1024 * 1024
// Headers kept in memory for the next blocks' parents: a few dozen per chain of any network.
const recentCapacity = 1024
// Reads of at most this many keys are synchronous point reads: each costs microseconds, while one
// round trip through the thread pool (getMany) costs tens of them and dominated one-block inserts.
const syncReadLimit = 16

/** Opens (creating when missing) the store of `network` in `path`, with its genesis blocks. */
export async function openStore(options: OpenStoreOptions): Promise<ChainStore> {
  const network = getNetwork(options.network)
  const db: Db = new ClassicLevel<Buffer, Buffer>(options.path, { keyEncoding: 'buffer', valueEncoding: 'buffer', writeBufferSize })
  try {
    await db.open()
  } catch (error) {
    throw new StoreOpenError(options.path, { cause: error })
  }
  try {
    const storedNetwork = await db.get(metaKey('network'))
    if (storedNetwork === undefined) {
      await db.batch([
        { type: 'put', key: metaKey('network'), value: Buffer.from(network.name) },
        { type: 'put', key: metaKey('layout'), value: Buffer.from(layoutVersion) },
      ])
    } else if (storedNetwork.toString() !== network.name) {
      throw new NetworkMismatchError(network.name, storedNetwork.toString())
    }
    const store = new LevelChainStore(db, network, await readHeads(db))
    await store.insertGenesisBlocks()
    return store
  } catch (error) {
    await db.close()
    throw error
  }
}

async function readHeads(db: Db): Promise<Map<number, RecentHeader>> {
  const heads = new Map<number, RecentHeader>()
  for await (const [key, hash] of db.iterator({ gte: Buffer.of(headPrefix), lt: Buffer.of(headPrefix + 1) })) {
    const stored = await readStoredHeader(db, hash)
    if (stored === undefined)
      throw new CorruptStoreError(`the best head ${hash.toString('base64url')} of chain ${chainOfHeadKey(key)} is not stored`)
    heads.set(chainOfHeadKey(key), stored)
  }
  return heads
}

async function readBlockValue(db: Db, hash: Uint8Array): Promise<Buffer | undefined> {
  const indexValue = await db.get(hashIndexKey(hash))
  if (indexValue === undefined) return undefined
  const { chainId, height } = decodeHashRecord(indexValue)
  const value = await db.get(blockKey(chainId, height, hash))
  if (value === undefined)
    throw new CorruptStoreError(`block ${Buffer.from(hash).toString('base64url')} is in the hash index but has no record`)
  return value
}

async function readStoredHeader(db: Db, hash: Uint8Array): Promise<RecentHeader | undefined> {
  const value = await readBlockValue(db, hash)
  if (value === undefined) return undefined
  const record = decodeBlockRecord(value)
  return { header: decodeHeader(record.headerBinary), headerJson: record.headerJson, txCount: record.txCount }
}

/** Whether `a` beats `b` as a chain's best block: higher weight, ties to the lower raw hash. */
export function isBetterHead(a: Header, b: Header): boolean {
  return a.weight > b.weight || (a.weight === b.weight && Buffer.compare(a.hash, b.hash) < 0)
}

function fullBlockJson(headerJson: Buffer, payloadJson: Buffer): Buffer {
  return Buffer.concat([blockJsonOpen, headerJson, blockJsonMiddle, payloadJson, blockJsonClose])
}

class LevelChainStore implements ChainStore {
  readonly network: Network
  readonly #db: Db
  readonly #queue = new WriteQueue()
  readonly #listeners = new Set<StoreListener>()
  readonly #recent = new RecentHeaders(recentCapacity)
  // Replaced, never mutated, so that a map handed out by cut() stays as it was.
  #heads: ReadonlyMap<number, Header>
  // The group that insert() calls join until its turn in the queue comes.
  #openGroup: PendingInsert[] | undefined
  #closed = false

  constructor(db: Db, network: Network, heads: ReadonlyMap<number, RecentHeader>) {
    this.#db = db
    this.network = network
    this.#heads = new Map([...heads].map(([chain, head]) => [chain, head.header]))
    for (const head of heads.values()) this.#recent.add(head)
  }

  /** Inserts every genesis block of the network that is not stored yet. */
  async insertGenesisBlocks(): Promise<void> {
    await this.insertMany(genesisBlocks(this.network))
  }

  async insert(block: Block): Promise<{ inserted: boolean }> {
    this.#assertOpen()
    return new Promise((resolve, reject) => {
      let group = this.#openGroup
      if (group === undefined) {
        const created: PendingInsert[] = []
        group = created
        this.#openGroup = created
        void this.#queue.run(() => this.#insertGroup(created))
      }
      group.push({ block, resolve, reject })
    })
  }

  async insertMany(blocks: readonly Block[]): Promise<number> {
    this.#assertOpen()
    // insert() calls made after this one must not be written before it: they start a new group.
    this.#openGroup = undefined
    return this.#queue.run(async () => {
      let inserted = 0
      // Each batch is validated while the one before it is being written: the write runs on
      // classic-level's thread pool, the validation on this thread. At most one batch is in flight,
      // so a failed write stops everything after it, and events keep their order.
      let previous: PreparedBatch | undefined
      let writing: Promise<void> = Promise.resolve()
      for (let start = 0; start < blocks.length; start += blocksPerBatch) {
        let prepared: PreparedBatch
        try {
          prepared = await this.#prepareBatch(blocks.slice(start, start + blocksPerBatch), true, previous)
        } catch (error) {
          await writing
          throw error
        }
        await writing
        writing = this.#commitBatch(prepared)
        previous = prepared
        for (const outcome of prepared.outcomes) {
          if (outcome instanceof Error) {
            await writing
            throw outcome
          }
          if (outcome) inserted++
        }
      }
      await writing
      return inserted
    })
  }

  // Writes the blocks of concurrent insert() calls together, in call order: each caller learns its
  // own block's outcome, and a refused block refuses no other caller's block.
  async #insertGroup(group: PendingInsert[]): Promise<void> {
    if (this.#openGroup === group) this.#openGroup = undefined
    try {
      for (let start = 0; start < group.length; start += blocksPerBatch) {
        const part = group.slice(start, start + blocksPerBatch)
        const prepared = await this.#prepareBatch(
          part.map((pending) => pending.block),
          false,
          undefined,
        )
        await this.#commitBatch(prepared)
        part.forEach((pending, index) => {
          const outcome = prepared.outcomes[index]!
          if (outcome instanceof Error) pending.reject(outcome)
          else pending.resolve({ inserted: outcome })
        })
      }
    } catch (error) {
      // The store itself failed (a read, a write, a corrupt record): no caller is left waiting.
      for (const pending of group) pending.reject(error)
    }
  }

  async getRefs(hashes: readonly Uint8Array[]): Promise<Array<HeaderRef | undefined>> {
    this.#assertOpen()
    if (hashes.length === 0) return []
    // A branch walk asks for one line's parent per height: point reads keep each step cheap.
    const values = await this.#read(hashes.map(hashIndexKey))
    return values.map((value, index) => {
      if (value === undefined) return undefined
      const record = decodeHashRecord(value)
      return { hash: Buffer.from(hashes[index]!), parent: record.parent, height: record.height, chainId: record.chainId }
    })
  }

  async getHeader(hash: Uint8Array): Promise<Header | undefined> {
    return (await this.getStoredHeader(hash))?.header
  }

  async getHeaderBinary(hash: Uint8Array): Promise<Buffer | undefined> {
    this.#assertOpen()
    const value = await readBlockValue(this.#db, hash)
    return value === undefined ? undefined : decodeBlockRecord(value).headerBinary
  }

  async getStoredHeader(hash: Uint8Array): Promise<StoredHeader | undefined> {
    this.#assertOpen()
    const stored = await readStoredHeader(this.#db, hash)
    return stored === undefined ? undefined : { header: stored.header, headerJson: stored.headerJson }
  }

  async getBlockJson(hash: Uint8Array): Promise<Buffer | undefined> {
    return (await this.getBlocksJson([hash]))[0]
  }

  async getBlocksJson(hashes: readonly Uint8Array[]): Promise<Array<Buffer | undefined>> {
    this.#assertOpen()
    if (hashes.length === 0) return []
    const indexValues = await this.#db.getMany(hashes.map(hashIndexKey))
    const found: Array<{ index: number; record: HashRecord }> = []
    indexValues.forEach((value, index) => {
      if (value !== undefined) found.push({ index, record: decodeHashRecord(value) })
    })
    const blockValues = await this.#db.getMany(found.map(({ index, record }) => blockKey(record.chainId, record.height, hashes[index]!)))
    const records = blockValues.map((value, at) => {
      if (value === undefined)
        throw new CorruptStoreError(
          `block ${Buffer.from(hashes[found[at]!.index]!).toString('base64url')} is in the hash index but has no record`,
        )
      return decodeBlockRecord(value)
    })
    const blocks = await this.#blocksJson(records)
    const result: Array<Buffer | undefined> = new Array<Buffer | undefined>(hashes.length).fill(undefined)
    found.forEach(({ index }, at) => {
      result[index] = blocks[at]
    })
    return result
  }

  async getPayloadJson(payloadHash: Uint8Array): Promise<Buffer | undefined> {
    this.#assertOpen()
    return this.#db.get(payloadKey(payloadHash))
  }

  range(query: RangeQuery): AsyncIterableIterator<RangeItem> {
    return new RangeReader(this.#db, () => this.#rangeBounds(query))
  }

  async #rangeBounds(query: RangeQuery): Promise<RangeBounds> {
    this.#assertOpen()
    const { chain } = query
    const minheight = Math.max(0, query.minheight ?? 0)
    const maxheight = query.maxheight ?? Number.MAX_SAFE_INTEGER
    let lower = blockKeyLow(chain, minheight)
    let lowerInclusive = true
    if (query.start !== undefined) {
      const indexValue = await this.#db.get(hashIndexKey(query.start.hash))
      const record = indexValue === undefined ? undefined : decodeHashRecord(indexValue)
      if (record === undefined || record.chainId !== chain) throw new CursorNotFoundError(query.start.hash, chain)
      const startKey = blockKey(chain, record.height, query.start.hash)
      // A start below minheight still starts at minheight: the bounds always apply.
      if (Buffer.compare(startKey, lower) >= 0) {
        lower = startKey
        lowerInclusive = query.start.inclusive
      }
    }
    if (maxheight < minheight) return undefined
    const upper = blockKeyHigh(chain, maxheight)
    return lowerInclusive ? { gte: lower, lte: upper } : { gt: lower, lte: upper }
  }

  async readRangeBlocks(items: readonly RangeItem[]): Promise<Buffer[]> {
    this.#assertOpen()
    return this.#blocksJson(items)
  }

  cut(): ReadonlyMap<number, Header> {
    return this.#heads
  }

  subscribe(listener: StoreListener): () => void {
    this.#assertOpen()
    // Wrapped so that subscribing the same function twice gives two independent subscriptions.
    const entry: StoreListener = (event) => listener(event)
    this.#listeners.add(entry)
    return () => {
      this.#listeners.delete(entry)
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    await this.#queue.drain()
    this.#listeners.clear()
    await this.#db.close()
  }

  #assertOpen(): void {
    if (this.#closed) throw new StoreClosedError()
  }

  async #blocksJson(records: ReadonlyArray<{ headerJson: Buffer; payloadHash: Buffer }>): Promise<Buffer[]> {
    if (records.length === 0) return []
    const payloads = await this.#db.getMany(records.map((record) => payloadKey(record.payloadHash)))
    return records.map((record, index) => {
      const payload = payloads[index]
      if (payload === undefined)
        throw new CorruptStoreError(`payload ${record.payloadHash.toString('base64url')} of a stored block is missing`)
      return fullBlockJson(record.headerJson, payload)
    })
  }

  #isGenesisHeight(chain: number, height: number): boolean {
    try {
      return genesisHeight(this.network, chain) === height
    } catch {
      return false
    }
  }

  // Reads `keys`: a few synchronously (see syncReadLimit), more with one getMany.
  async #read(keys: readonly Buffer[]): Promise<Array<Buffer | undefined>> {
    if (keys.length <= syncReadLimit) return keys.map((key) => this.#db.getSync(key))
    return this.#db.getMany(keys as Buffer[])
  }

  // Validates `blocks` (parent-first) and stages the writes and events of the valid ones, with each
  // block's outcome. With `stopAtFailure`, the first refused block ends the batch (the blocks
  // before it still count) and the outcomes stop there; otherwise a refused block is skipped and
  // its descendants in the batch are refused for their missing parent. `previous` is the batch
  // being written meanwhile: its blocks count as stored and its heads as the cut.
  async #prepareBatch(blocks: readonly Block[], stopAtFailure: boolean, previous: PreparedBatch | undefined): Promise<PreparedBatch> {
    const recent = this.#recent
    const inFlight: ReadonlyMap<string, JoinedBlock> = previous?.staged ?? new Map()
    // Blocks among the recent or in-flight headers are stored; only the others are looked up,
    // with the payloads, in one read.
    // Each hash's map key, computed once: hashes, parents and payload hashes are looked up often.
    const keys = blocks.map((block) => hashMapKey(block.header.hash))
    const stored = keys.map((key) => recent.has(key) || inFlight.has(key))
    const lookedUp = blocks.flatMap((block, index) => (stored[index] ? [] : [block.header.hash]))
    const payloadHashes = [...new Map(blocks.map((block) => [hashMapKey(block.header.payloadHash), block.header.payloadHash])).values()]
    const values = await this.#read([...lookedUp.map(hashIndexKey), ...payloadHashes.map(payloadKey)])
    let at = 0
    for (const [index, isStored] of stored.entries()) if (!isStored) stored[index] = values[at++] !== undefined
    const storedPayloads = new Set(payloadHashes.filter((_, index) => values[lookedUp.length + index] !== undefined).map(hashMapKey))
    for (const key of previous?.payloads ?? []) storedPayloads.add(key)
    // Parents among this call's new blocks are staged below; every other parent is read up front.
    const newHashes = new Set(keys.filter((_, index) => !stored[index]))
    const storedParents = await this.#readParents(blocks, newHashes, inFlight)

    const staged = new Map<string, JoinedBlock>()
    const known = (key: string): JoinedBlock | undefined =>
      staged.get(key) ?? inFlight.get(key) ?? recent.get(key) ?? storedParents.get(key)
    const payloads = new Set<string>()
    const operations: PutOperation[] = []
    const events: StoreEvent[] = []
    const outcomes: Outcome[] = []
    const heads = new Map(previous?.heads ?? this.#heads)
    const changedChains = new Set<number>()
    for (const [index, block] of blocks.entries()) {
      const { header } = block
      const key = keys[index]!
      if (stored[index] || staged.has(key)) {
        outcomes.push(false)
        continue
      }
      const parent = known(hashMapKey(header.parent))?.header
      let failure: Error | undefined
      if (parent === undefined && !this.#isGenesisHeight(header.chainId, header.height)) {
        failure = new MissingParentError(header.hash, header.parent)
      } else {
        const violations = validateBlock(block, parent, this.network)
        if (violations.length > 0) failure = new InvalidBlockError(header.hash, violations)
      }
      outcomes.push(failure ?? true)
      if (failure !== undefined) {
        if (stopAtFailure) break
        continue
      }
      const headerBinary = encodeHeader(header)
      const headerJson = Buffer.from(headerToJsonText(header, 'spec'))
      const count = txCount(block.payload)
      const entry: JoinedBlock = { header, headerJson, txCount: count }
      staged.set(key, entry)
      operations.push(
        {
          type: 'put',
          key: blockKey(header.chainId, header.height, header.hash),
          value: encodeBlockRecord({ payloadHash: header.payloadHash, txCount: count, headerBinary, headerJson }),
        },
        { type: 'put', key: hashIndexKey(header.hash), value: encodeHashRecord(header.chainId, header.height, header.parent) },
      )
      const payloadMapKey = hashMapKey(header.payloadHash)
      if (!storedPayloads.has(payloadMapKey)) {
        storedPayloads.add(payloadMapKey)
        payloads.add(payloadMapKey)
        // Handed over as text: classic-level encodes it while copying it into the batch, which
        // saves a Buffer of several kilobytes per block.
        operations.push({
          type: 'put',
          key: payloadKey(header.payloadHash),
          value: payloadToJsonText(block.payload),
          valueEncoding: 'utf8',
        })
      }
      events.push({ type: 'inserted', header, headerJson, txCount: count })
      const oldHead = heads.get(header.chainId)
      if (oldHead === undefined || isBetterHead(header, oldHead)) {
        // The usual case, a block on top of the head, needs no walk (and no await).
        const joined =
          oldHead === undefined || header.parent.equals(oldHead.hash) ? [entry] : await this.#joinedBlocks(entry, oldHead, known)
        heads.set(header.chainId, header)
        changedChains.add(header.chainId)
        events.push({ type: 'best', chain: header.chainId, head: header, joined })
      }
    }
    for (const chain of changedChains) operations.push({ type: 'put', key: headKey(chain), value: heads.get(chain)!.hash })
    return { staged, payloads, operations, events, outcomes, heads }
  }

  // Writes a prepared batch atomically, then makes it the cut, remembers its headers and announces it.
  async #commitBatch(prepared: PreparedBatch): Promise<void> {
    if (prepared.operations.length === 0) return
    await this.#db.batch<Buffer, Buffer | string>(prepared.operations, {})
    this.#heads = prepared.heads
    // Only now are the staged blocks durable, so only now may they answer for parents.
    for (const entry of prepared.staged.values()) this.#recent.add(entry)
    for (const event of prepared.events) this.#emit(event)
  }

  // Parents of `blocks` that are neither among `newHashes` nor recent nor in flight, read from the store.
  async #readParents(
    blocks: readonly Block[],
    newHashes: ReadonlySet<string>,
    inFlight: ReadonlyMap<string, JoinedBlock>,
  ): Promise<Map<string, RecentHeader>> {
    const wanted = new Map<string, Buffer>()
    for (const { header } of blocks) {
      const key = hashMapKey(header.parent)
      if (!newHashes.has(key) && !inFlight.has(key) && !this.#recent.has(key)) wanted.set(key, header.parent)
    }
    const parents = new Map<string, RecentHeader>()
    if (wanted.size === 0) return parents
    const hashes = [...wanted.values()]
    const indexValues = await this.#read(hashes.map(hashIndexKey))
    const found = hashes.flatMap((hash, index) => {
      const value = indexValues[index]
      return value === undefined ? [] : [{ hash, record: decodeHashRecord(value) }]
    })
    const values = await this.#read(found.map(({ hash, record }) => blockKey(record.chainId, record.height, hash)))
    found.forEach(({ hash }, index) => {
      const value = values[index]
      if (value === undefined) throw new CorruptStoreError(`block ${hash.toString('base64url')} is in the hash index but has no record`)
      const record = decodeBlockRecord(value)
      parents.set(hashMapKey(hash), { header: decodeHeader(record.headerBinary), headerJson: record.headerJson, txCount: record.txCount })
    })
    return parents
  }

  // The blocks that join the winning branch when `newHead` replaces `oldHead`: from the new head
  // back to the fork point with the old head, returned ancestors first. Ancestors come from
  // `known` (staged, in flight or recent) or, further back, from the store.
  async #joinedBlocks(newHead: JoinedBlock, oldHead: Header, known: (key: string) => JoinedBlock | undefined): Promise<JoinedBlock[]> {
    const load = async (hash: Buffer): Promise<JoinedBlock> => {
      const entry = known(hashMapKey(hash)) ?? (await readStoredHeader(this.#db, hash))
      if (entry === undefined) throw new CorruptStoreError(`ancestor ${hash.toString('base64url')} of a stored block is missing`)
      return entry
    }
    const joined: JoinedBlock[] = []
    let onNew = newHead
    let onOld = oldHead
    while (onNew.header.height > onOld.height) {
      joined.push(onNew)
      onNew = await load(onNew.header.parent)
    }
    while (onOld.height > onNew.header.height) onOld = (await load(onOld.parent)).header
    while (!onNew.header.hash.equals(onOld.hash)) {
      joined.push(onNew)
      onNew = await load(onNew.header.parent)
      onOld = (await load(onOld.parent)).header
    }
    return joined.reverse()
  }

  #emit(event: StoreEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event)
      } catch (error) {
        // Listeners are the server's business: report, and never fail the insert that is already durable.
        process.emitWarning(new ListenerError({ cause: error }))
      }
    }
  }
}
