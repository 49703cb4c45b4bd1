import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { allChains, getNetwork, type Network } from '@weft/block'
import type { NetworkName } from '@weft/types'
import { ClassicLevel } from 'classic-level'
import { CorruptStoreError, NetworkMismatchError } from '../errors.js'
import { catchUpStart, decodeIndexState, encodeIndexState, indexStateKey } from '../index-state.js'
import { type ChainDb, chainOfHeadKey, decodeHashRecord, hashIndexKey, headKey, headPrefix, metaKey } from '../keys.js'
import { adoptedCutKey, readAdoptedCut } from '../node-cut.js'
import { openFailure } from '../open-failure.js'
import { layoutVersion } from '../open-store.js'
import { dropDanglingHashes, repointPayloads } from './dangling-records.js'
import { type ChainTally, keepWholeBlocks } from './keep-blocks.js'

/** Options of `repairStore`. */
export interface RepairStoreOptions {
  /** The store's folder; its store must be closed (no process may hold it). */
  readonly path: string
  /** The store's network: needed only when the damage took the record that names it; checked against it otherwise. */
  readonly network?: NetworkName
  /** Heights of every chain the block scan holds in memory at once (default 1,000). */
  readonly windowHeights?: number
}

/** What the repair did to one chain. */
export interface ChainRepair {
  readonly chain: number
  /** Height of the chain's best block before the repair, when its records could be read. */
  readonly headBefore: number | undefined
  /** Height of its best block kept: the chain is whole up to there, and a node fetches again from there. */
  readonly headAfter: number | undefined
  /** Blocks kept. */
  readonly blocks: number
  /** Blocks dropped: damaged, or standing above a lost one. */
  readonly dropped: number
  /** The lowest height where a block was lost or dropped, if any: heights from there up are incomplete until fetched again. */
  readonly lostFrom: number | undefined
}

/** The report of `repairStore`. */
export interface StoreRepair {
  readonly path: string
  readonly network: NetworkName
  /** LevelDB's repair log lines about damaged tables (`Table #9: 605 entries Corruption: …`). */
  readonly damagedTables: readonly string[]
  /** Per chain of the network, ascending. */
  readonly chains: readonly ChainRepair[]
  /** Whether the adopted cut was kept (its heads survived); `undefined` for a store that had none. */
  readonly cutKept: boolean | undefined
  /** `rebuilding`: the transaction index was cleared and catches up when the store opens; `disabled`: the store keeps none. */
  readonly index: 'rebuilding' | 'disabled'
}

/**
 * Repairs the store in `path` after LevelDB found a table damaged (`STORE_DAMAGED`): runs LevelDB's
 * repair (`ClassicLevel.repair`, which keeps every readable record of every table), then keeps the
 * store's whole part: every block that is whole and whose ancestry is, its heads and index entries
 * set to match. Blocks above a loss are dropped, so each chain's best block is where the store is
 * whole: an ingest that starts on it fetches again every height from there. Refuses a store that
 * another process holds (`STORE_OPEN_FAILED`, reason `locked`).
 */
export async function repairStore(options: RepairStoreOptions): Promise<StoreRepair> {
  const { path } = options
  const headsBefore = await readHeadsBefore(path)
  await ClassicLevel.repair(path)
  // The repair writes its own log; the next open moves it to LOG.old.
  const log = await readFile(join(path, 'LOG'), 'utf8')
  const damagedTables = log
    .split('\n')
    .filter((line) => /corruption/i.test(line))
    .map((line) => line.replace(/^\S+ \S+ /, ''))
  const db: ChainDb = new ClassicLevel<Buffer, Buffer>(path, { keyEncoding: 'buffer', valueEncoding: 'buffer', createIfMissing: false })
  await db.open()
  try {
    const network = await networkOf(db, path, options.network)
    const tallies = await keepWholeBlocks(db, network, options.windowHeights ?? 1000)
    await dropDanglingHashes(db, tallies)
    await repointPayloads(db)
    await writeHeads(db, tallies)
    const cutKept = await checkAdoptedCut(db)
    const index = await resetIndex(db, network)
    return {
      path,
      network: network.name,
      damagedTables,
      chains: allChains(network).map((chain) => chainRepair(chain, headsBefore.get(chain), tallies.get(chain)!)),
      cutKept,
      index,
    }
  } finally {
    await db.close()
  }
}

function chainRepair(chain: number, headBefore: number | undefined, tally: ChainTally): ChainRepair {
  return { chain, headBefore, headAfter: tally.head?.height, blocks: tally.blocks, dropped: tally.dropped, lostFrom: tally.lostFrom }
}

// Each chain's best height as the store records it, read before the repair; refuses a folder
// another process holds, or one LevelDB cannot open for another cause than damage.
async function readHeadsBefore(path: string): Promise<Map<number, number>> {
  const heads = new Map<number, number>()
  const db: ChainDb = new ClassicLevel<Buffer, Buffer>(path, { keyEncoding: 'buffer', valueEncoding: 'buffer', createIfMissing: false })
  try {
    await db.open()
  } catch (error) {
    const failure = openFailure(path, error)
    // Damage LevelDB meets while opening (its manifest, a table it reads at once) is the repair's to mend.
    if (failure.reason === 'corrupt') return heads
    throw failure
  }
  try {
    for (const [key, hash] of await db.iterator({ gte: Buffer.of(headPrefix), lt: Buffer.of(headPrefix + 1) }).all()) {
      const record = await db.get(hashIndexKey(hash))
      if (record !== undefined) heads.set(chainOfHeadKey(key), decodeHashRecord(record).height)
    }
  } catch {
    // A head record or its block unreadable: the heads read so far are what is known.
  } finally {
    await db.close()
  }
  return heads
}

async function networkOf(db: ChainDb, path: string, asked: NetworkName | undefined): Promise<Network> {
  const stored = (await db.get(metaKey('network')))?.toString()
  if (stored !== undefined && asked !== undefined && stored !== asked) throw new NetworkMismatchError(asked, stored)
  const name = (stored ?? asked) as NetworkName | undefined
  if (name === undefined)
    throw new CorruptStoreError(`the record naming the network of ${path} was lost: repair it again naming the network`)
  const network = getNetwork(name)
  await db.batch([
    { type: 'put', key: metaKey('network'), value: Buffer.from(network.name) },
    { type: 'put', key: metaKey('layout'), value: Buffer.from(layoutVersion) },
  ])
  return network
}

async function writeHeads(db: ChainDb, tallies: ReadonlyMap<number, ChainTally>): Promise<void> {
  await db.clear({ gte: Buffer.of(headPrefix), lt: Buffer.of(headPrefix + 1) })
  await db.batch(
    [...tallies].flatMap(([chain, { head }]) =>
      head === undefined ? [] : [{ type: 'put' as const, key: headKey(chain), value: head.hash }],
    ),
  )
}

// The adopted cut is kept when all its heads were; otherwise the store stands on its heads until it adopts one again.
async function checkAdoptedCut(db: ChainDb): Promise<boolean | undefined> {
  // A cut record the damage left malformed is dropped as one whose heads were lost.
  const cut = await readAdoptedCut(db).catch(() => null)
  if (cut === undefined) return undefined
  const stored = cut === null ? [false] : await db.hasMany([...cut.values()].map((hash) => hashIndexKey(hash)))
  if (stored.every(Boolean)) return true
  await db.del(adoptedCutKey)
  return false
}

// Index entries may have been lost with the damage, or name dropped blocks: all are cleared, and the
// catch-up writes them again from each chain's top when the store opens.
async function resetIndex(db: ChainDb, network: Network): Promise<'rebuilding' | 'disabled'> {
  const stored = await db.get(indexStateKey)
  // A state record the damage left malformed counts as an index kept.
  let disabled = false
  try {
    disabled = stored !== undefined && decodeIndexState(stored).state === 'disabled'
  } catch {}
  if (disabled) return 'disabled'
  await db.clear({ gte: Buffer.of(0x69), lt: Buffer.of(0x6a) })
  const below = await catchUpStart(db, network)
  const total = [...below.values()].reduce((sum, height) => sum + height, 0)
  // Never 0 (the state's rule): a store with no block left catches up on nothing and is complete at once.
  await db.put(indexStateKey, encodeIndexState({ state: 'catching-up', below, total: Math.max(1, total) }))
  return 'rebuilding'
}
