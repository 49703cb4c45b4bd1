import { ClassicLevel } from 'classic-level'
import {
  genesisBlocks,
  decodeHeader,
  encodeHeader,
  genesisHeight,
  getNetwork,
  headerToJsonText,
  payloadToJsonText,
  txCount,
  validateBlock,
  type Block,
  type Header,
  type Network,
} from '@weft/block'
import type { NetworkName } from '@weft/types'
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
import type { HeaderRef, HeaderSource } from '@weft/traversal'
import {
  blockKey,
  blockKeyHigh,
  blockKeyLow,
  chainOfHeadKey,
  decodeBlockRecord,
  decodeHashRecord,
  encodeBlockRecord,
  encodeHashRecord,
  hashKey,
  headKey,
  headPrefix,
  metaKey,
  payloadKey,
  type HashRecord,
  type RangeItem,
} from './keys.js'
import { RangeReader, type RangeBounds } from './range-reader.js'
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
type PutOperation = { type: 'put'; key: Buffer; value: Buffer }

// Blocks of one insertMany call written per batch: large enough to amortise a write, small enough
// that a batch stays a few hundred kilobytes.
const blocksPerBatch = 256
const blockJsonOpen = Buffer.from('{"header":')
const blockJsonMiddle = Buffer.from(',"payloadWithOutputs":')
const blockJsonClose = Buffer.from('}')
const layoutVersion = '1'

/** Opens (creating when missing) the store of `network` in `path`, with its genesis blocks. */
export async function openStore(options: OpenStoreOptions): Promise<ChainStore> {
  const network = getNetwork(options.network)
  const db: Db = new ClassicLevel<Buffer, Buffer>(options.path, { keyEncoding: 'buffer', valueEncoding: 'buffer' })
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

async function readHeads(db: Db): Promise<Map<number, Header>> {
  const heads = new Map<number, Header>()
  for await (const [key, hash] of db.iterator({ gte: Buffer.of(headPrefix), lt: Buffer.of(headPrefix + 1) })) {
    const stored = await readStoredHeader(db, hash)
    if (stored === undefined) throw new CorruptStoreError(`the best head ${hash.toString('base64url')} of chain ${chainOfHeadKey(key)} is not stored`)
    heads.set(chainOfHeadKey(key), stored.header)
  }
  return heads
}

async function readBlockValue(db: Db, hash: Uint8Array): Promise<Buffer | undefined> {
  const indexValue = await db.get(hashKey(hash))
  if (indexValue === undefined) return undefined
  const { chainId, height } = decodeHashRecord(indexValue)
  const value = await db.get(blockKey(chainId, height, hash))
  if (value === undefined) throw new CorruptStoreError(`block ${Buffer.from(hash).toString('base64url')} is in the hash index but has no record`)
  return value
}

async function readStoredHeader(db: Db, hash: Uint8Array): Promise<(StoredHeader & { txCount: number }) | undefined> {
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

function mapKey(hash: Uint8Array): string {
  return Buffer.from(hash.buffer, hash.byteOffset, hash.byteLength).toString('latin1')
}

class LevelChainStore implements ChainStore {
  readonly network: Network
  readonly #db: Db
  readonly #queue = new WriteQueue()
  readonly #listeners = new Set<StoreListener>()
  // Replaced, never mutated, so that a map handed out by cut() stays as it was.
  #heads: ReadonlyMap<number, Header>
  #closed = false

  constructor(db: Db, network: Network, heads: ReadonlyMap<number, Header>) {
    this.#db = db
    this.network = network
    this.#heads = heads
  }

  /** Inserts every genesis block of the network that is not stored yet. */
  async insertGenesisBlocks(): Promise<void> {
    await this.insertMany(genesisBlocks(this.network))
  }

  async insert(block: Block): Promise<{ inserted: boolean }> {
    this.#assertOpen()
    return this.#queue.run(async () => ({ inserted: (await this.#insertBatch([block])) === 1 }))
  }

  async insertMany(blocks: readonly Block[]): Promise<number> {
    this.#assertOpen()
    return this.#queue.run(async () => {
      let inserted = 0
      for (let start = 0; start < blocks.length; start += blocksPerBatch) inserted += await this.#insertBatch(blocks.slice(start, start + blocksPerBatch))
      return inserted
    })
  }

  async getRefs(hashes: readonly Uint8Array[]): Promise<Array<HeaderRef | undefined>> {
    this.#assertOpen()
    if (hashes.length === 0) return []
    const values = await this.#db.getMany(hashes.map(hashKey))
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
    const indexValues = await this.#db.getMany(hashes.map(hashKey))
    const found: Array<{ index: number; record: HashRecord }> = []
    indexValues.forEach((value, index) => {
      if (value !== undefined) found.push({ index, record: decodeHashRecord(value) })
    })
    const blockValues = await this.#db.getMany(found.map(({ index, record }) => blockKey(record.chainId, record.height, hashes[index]!)))
    const records = blockValues.map((value, at) => {
      if (value === undefined) throw new CorruptStoreError(`block ${Buffer.from(hashes[found[at]!.index]!).toString('base64url')} is in the hash index but has no record`)
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
      const indexValue = await this.#db.get(hashKey(query.start.hash))
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
      if (payload === undefined) throw new CorruptStoreError(`payload ${record.payloadHash.toString('base64url')} of a stored block is missing`)
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

  // Validates and writes `blocks` (parent-first) in one atomic batch, then announces them. On the
  // first refused block, the blocks before it are still written and announced, then it throws.
  async #insertBatch(blocks: readonly Block[]): Promise<number> {
    const db = this.#db
    const existing = await db.getMany(blocks.map((block) => hashKey(block.header.hash)))
    // Parents among this call's new blocks are staged below; every other parent is read up front.
    const newHashes = new Set(blocks.filter((_, index) => existing[index] === undefined).map((block) => mapKey(block.header.hash)))
    const storedParents = await this.#readParents(blocks, newHashes)
    const payloadHashes = [...new Map(blocks.map((block) => [mapKey(block.header.payloadHash), block.header.payloadHash])).values()]
    const payloadValues = await db.getMany(payloadHashes.map(payloadKey))
    const storedPayloads = new Set(payloadHashes.filter((_, index) => payloadValues[index] !== undefined).map(mapKey))

    const staged = new Map<string, JoinedBlock>()
    const operations: PutOperation[] = []
    const events: StoreEvent[] = []
    const heads = new Map(this.#heads)
    const changedChains = new Set<number>()
    let failure: Error | undefined
    for (const [index, block] of blocks.entries()) {
      const { header } = block
      const key = mapKey(header.hash)
      if (existing[index] !== undefined || staged.has(key)) continue
      const parentKey = mapKey(header.parent)
      const parent = staged.get(parentKey)?.header ?? storedParents.get(parentKey)
      if (parent === undefined && !this.#isGenesisHeight(header.chainId, header.height)) {
        failure = new MissingParentError(header.hash, header.parent)
        break
      }
      const violations = validateBlock(block, parent, this.network)
      if (violations.length > 0) {
        failure = new InvalidBlockError(header.hash, violations)
        break
      }
      const headerBinary = encodeHeader(header)
      const headerJson = Buffer.from(headerToJsonText(header, 'spec'))
      const count = txCount(block.payload)
      const entry: JoinedBlock = { header, headerJson, txCount: count }
      staged.set(key, entry)
      operations.push(
        { type: 'put', key: blockKey(header.chainId, header.height, header.hash), value: encodeBlockRecord({ payloadHash: header.payloadHash, txCount: count, headerBinary, headerJson }) },
        { type: 'put', key: hashKey(header.hash), value: encodeHashRecord(header.chainId, header.height, header.parent) },
      )
      const payloadMapKey = mapKey(header.payloadHash)
      if (!storedPayloads.has(payloadMapKey)) {
        storedPayloads.add(payloadMapKey)
        operations.push({ type: 'put', key: payloadKey(header.payloadHash), value: Buffer.from(payloadToJsonText(block.payload)) })
      }
      events.push({ type: 'inserted', header, headerJson, txCount: count })
      const oldHead = heads.get(header.chainId)
      if (oldHead === undefined || isBetterHead(header, oldHead)) {
        const joined = await this.#joinedBlocks(entry, oldHead, staged)
        heads.set(header.chainId, header)
        changedChains.add(header.chainId)
        events.push({ type: 'best', chain: header.chainId, head: header, joined })
      }
    }
    for (const chain of changedChains) operations.push({ type: 'put', key: headKey(chain), value: heads.get(chain)!.hash })
    if (operations.length > 0) {
      await db.batch(operations)
      if (changedChains.size > 0) this.#heads = heads
      for (const event of events) this.#emit(event)
    }
    if (failure !== undefined) throw failure
    return staged.size
  }

  // Parents of `blocks` that are not among `newHashes`, read from the store with two getMany calls.
  async #readParents(blocks: readonly Block[], newHashes: ReadonlySet<string>): Promise<Map<string, Header>> {
    const wanted = new Map<string, Buffer>()
    for (const { header } of blocks) {
      const key = mapKey(header.parent)
      if (!newHashes.has(key)) wanted.set(key, header.parent)
    }
    const parents = new Map<string, Header>()
    const hashes = [...wanted.values()]
    const indexValues = await this.#db.getMany(hashes.map(hashKey))
    const found = hashes.flatMap((hash, index) => {
      const value = indexValues[index]
      return value === undefined ? [] : [{ hash, record: decodeHashRecord(value) }]
    })
    const values = await this.#db.getMany(found.map(({ hash, record }) => blockKey(record.chainId, record.height, hash)))
    found.forEach(({ hash }, index) => {
      const value = values[index]
      if (value === undefined) throw new CorruptStoreError(`block ${hash.toString('base64url')} is in the hash index but has no record`)
      parents.set(mapKey(hash), decodeHeader(decodeBlockRecord(value).headerBinary))
    })
    return parents
  }

  // The blocks that join the winning branch when `newHead` replaces `oldHead`: from the new head
  // back to the fork point with the old head, returned ancestors first.
  async #joinedBlocks(newHead: JoinedBlock, oldHead: Header | undefined, staged: ReadonlyMap<string, JoinedBlock>): Promise<JoinedBlock[]> {
    if (oldHead === undefined || newHead.header.parent.equals(oldHead.hash)) return [newHead]
    const load = async (hash: Buffer): Promise<JoinedBlock> => {
      const entry = staged.get(mapKey(hash)) ?? (await readStoredHeader(this.#db, hash))
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
