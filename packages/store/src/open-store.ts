import { genesisBlocks, getNetwork, type Header } from '@weft/block'
import { isWeftError } from '@weft/errors'
import type { NetworkName } from '@weft/types'
import { ClassicLevel } from 'classic-level'
import { BlockReads } from './block-reads.js'
import { readHeads } from './chain-heads.js'
import type { ChainStore, CutPolicy } from './chain-store.js'
import { DamageWatch, type StoreDamage } from './damage-watch.js'
import { type DiskChecks, DiskGuard, type WriteState } from './disk-guard.js'
import { CorruptStoreError, NetworkMismatchError, StoreDamagedError, StoreFullError, UnsupportedLayoutError } from './errors.js'
import { restoreGenesisEntries } from './genesis-entries.js'
import { openIndexState } from './index-state.js'
import { type ChainDb, metaKey } from './keys.js'
import { LevelChainStore } from './level-chain-store.js'
import { forkChoiceCut, readAdoptedCut } from './node-cut.js'
import { openFailure } from './open-failure.js'
import { checkStoredRules, RULES_VERSION, type RulesCheckProgress } from './rules-check.js'
import { defaultValidationThreads } from './validation-pool.js'

/** Options of `openStore`. */
export interface OpenStoreOptions {
  /** Folder of the classic-level database; created when missing. */
  path: string
  /** The one network this store keeps; a folder keeps the network it was created for. */
  network: NetworkName
  /** How the node's cut is chosen: `fork-choice` (default) or `adopted` (see `CutPolicy`). */
  cutPolicy?: CutPolicy
  /**
   * The clock that judges creation times (a block created after it is refused, BLOCK_IN_THE_FUTURE),
   * microseconds since the POSIX epoch. Default: the system clock.
   */
  clock?: () => number
  /**
   * Called as the blocks of a store written before this version of Weft checked every rule of
   * chainweb-node 3.2 are checked at open (see "Stores written before"); the last call has
   * `height` past `top`.
   */
  onRulesCheck?: (progress: RulesCheckProgress) => void
  /**
   * Worker threads that run the hashing checks and encodings of bulk inserts (`insertMany` batches
   * of 32 blocks or more), one atomic batch still written at a time by the main thread. Default:
   * one per core (`availableParallelism()`); 0 runs everything on the calling thread.
   */
  validationThreads?: number
  /**
   * Flush every write to the disk (fsync) before it counts as written (default false). Without it a
   * killed process loses nothing it acknowledged (the operating system has the writes), but a power
   * loss or a kernel crash may lose the last writes of a few seconds, never part of a block.
   */
  syncWrites?: boolean
  /**
   * Keep the transaction, event and transfer index (default true): each block's `@weft/index`
   * entries are written in its batch, and a store written without them catches up in the
   * background (see `TransactionIndex.status`). False writes blocks without entries and records
   * it, so that index reads answer `INDEX_DISABLED`; turning it on again catches up.
   */
  index?: boolean
  /** Blocks the index catch-up reads from each chain per step (default 64): smaller steps, more of them. */
  indexCatchUpBlocks?: number
  /**
   * Start the index catch-up when the store opens, if it has one to do (default true). A tool that
   * opens a store for a moment may leave it to the next open: the index then stays incomplete.
   */
  indexCatchUp?: boolean
  /**
   * When a store whose disk filled up (`STORE_FULL`) checks for room again: first wait, longest
   * wait, and the free bytes it needs before it tries a write (see `DiskChecks`).
   */
  diskChecks?: DiskChecks
  /** Told each change of `writeState()`: the disk filled up (once, until it takes writes again), or takes writes again. */
  onWriteState?: (state: WriteState) => void
  /** Told once, the first time a read or write meets a damaged table file (`STORE_DAMAGED`; see `damage()`). */
  onDamage?: (damage: StoreDamage) => void
}

// 3: index entries (`i` keys) and the index state record (`m·index`). 2: a block's payload lives in
// its record (a page is one ordered read), `p` names a block holding it. A layout-2 store is taken
// as it is and catches its index up: it differs only by what it lacks.
export const layoutVersion = '3'
const upgradableLayouts = new Set(['2'])
// LevelDB's memtable (4 MiB by default): a larger one means fewer, larger level-0 files and less
// compaction while blocks stream in, at the cost of up to two such tables in memory and a longer log
// replay on open. 16 MiB fills as fast as 32 MiB did (within the noise of a 100,000-block bulk load)
// with 32 MiB less memory; 4 MiB cost about 14% more CPU per block.
const writeBufferSize = 16 * 1024 * 1024
// LevelDB compresses each table block on its own (Snappy), and a block record is about 2.4 KB, so
// the default 4 KiB blocks held one or two records each: 16 KiB blocks compress the headers and
// payloads of several neighbours together. A 1,000,000-block load took 1,097 MB on disk against
// 1,519, at the same insert rate and compaction time (within the noise of two loads each); 100-block
// pages cost the same, read cold or again, and a header read cold about a tenth more. 64 KiB took
// 909 MB, but a page read again cost a quarter more.
const blockSize = 16 * 1024

/**
 * Opens (creating when missing) the store of `network` in `path`, with its genesis blocks. Every
 * block it takes keeps every rule of the network (`validateHeader` of @weft/block and braiding): a
 * block comes after its parent and the neighbours it names. A store written before this version
 * checked every rule is checked at open (`onRulesCheck` tells how far; resumable), or refused with
 * `STORE_BREAKS_RULES`.
 */
export function openStore(options: OpenStoreOptions): Promise<ChainStore> {
  return open(options, true)
}

/**
 * A new store for a snapshot import: its blocks are checked for their hashes and parent links as
 * they are written (the file holds them chain by chain, neighbours later), and every rule is
 * checked when it is opened again, before it is ever used (`openStore` checks a store that does not
 * record its rules).
 */
export function openImportStore(options: OpenStoreOptions): Promise<ChainStore> {
  return open(options, false)
}

async function open(options: OpenStoreOptions, fullRules: boolean): Promise<ChainStore> {
  const network = getNetwork(options.network)
  const db: ChainDb = new ClassicLevel<Buffer, Buffer>(options.path, {
    keyEncoding: 'buffer',
    valueEncoding: 'buffer',
    writeBufferSize,
    blockSize,
  })
  const damage = new DamageWatch(options.path, options.onDamage)
  damage.watch(db)
  try {
    await db.open()
  } catch (error) {
    throw openFailure(options.path, error)
  }
  const guard = new DiskGuard({
    db,
    path: options.path,
    syncWrites: options.syncWrites ?? false,
    checks: options.diskChecks ?? {},
    onChange: options.onWriteState,
  })
  try {
    const storedNetwork = await db.get(metaKey('network'))
    const created = storedNetwork === undefined
    let layout = layoutVersion
    if (created) {
      await db.batch(
        [
          { type: 'put', key: metaKey('network'), value: Buffer.from(network.name) },
          { type: 'put', key: metaKey('layout'), value: Buffer.from(layoutVersion) },
          // An import store records its rules only once checked in full, when opened again.
          ...(fullRules ? [{ type: 'put' as const, key: metaKey('rules'), value: Buffer.from(RULES_VERSION) }] : []),
        ],
        { sync: options.syncWrites ?? false },
      )
    } else if (storedNetwork.toString() !== network.name) {
      throw new NetworkMismatchError(network.name, storedNetwork.toString())
    } else {
      layout = (await db.get(metaKey('layout')))?.toString() ?? 'none'
      if (layout !== layoutVersion && !upgradableLayouts.has(layout)) throw new UnsupportedLayoutError(options.path, layout, layoutVersion)
    }
    const index = await openIndexState(db, network, { index: options.index ?? true, created })
    // Written once the index state is: a store that says layout 3 always has a state record.
    if (layout !== layoutVersion) await db.put(metaKey('layout'), Buffer.from(layoutVersion))
    const reads = new BlockReads(db)
    const cutPolicy = options.cutPolicy ?? 'fork-choice'
    const heads = await readHeads(db, reads)
    if (!created) {
      const rules = (await db.get(metaKey('rules')))?.toString()
      if (rules === undefined && fullRules) {
        const top = Math.max(0, ...[...heads.values()].map((head) => head.header.height))
        await checkStoredRules(db, reads, network, { path: options.path, top, onProgress: options.onRulesCheck })
      } else if (rules !== undefined && rules !== RULES_VERSION)
        throw new UnsupportedLayoutError(options.path, `rules ${rules}`, `rules ${RULES_VERSION}`)
    }
    const store = new LevelChainStore(db, network, heads, {
      cutPolicy,
      fullRules,
      clock: options.clock ?? (() => Date.now() * 1000),
      validationThreads: options.validationThreads ?? defaultValidationThreads(),
      syncWrites: options.syncWrites ?? false,
      adopted: cutPolicy === 'adopted' ? await readAdopted(db, reads) : undefined,
      index,
      indexCatchUpBlocks: options.indexCatchUpBlocks,
      guard,
      damage,
    })
    // Missing genesis blocks are put back on every open; stored ones are skipped without a write.
    await store.insertMany(genesisBlocks(network))
    // So are their index entries: stores written before this version derived none for a genesis block that
    // misses its target, while their index said it was complete.
    if (index.state !== 'disabled') await restoreGenesisEntries(db, network, guard)
    // A new adopted store stands on the genesis cut (the chains of the first graph) until it adopts
    // one, also across a restart before that: its blocks are not vouched for by any cut yet.
    if (created && cutPolicy === 'adopted') {
      const genesisCut = forkChoiceCut(network, store.heads())
      await store.adoptCut(new Map([...genesisCut].map(([chain, head]) => [chain, head.hash])))
    }
    store.standOnHeadsUntilAdoption()
    if (options.indexCatchUp ?? true) store.startIndexCatchUp()
    return store
  } catch (error) {
    await guard.close()
    await db.close()
    // The store's own refusals as they are; the engine failing on a read or write of the open (a table
    // file found corrupt, a disk error) is a failure to open, with its reason.
    // A full disk while the store opens (its genesis blocks) is a failure to open, reason `disk-full`;
    // a damaged table met on its reads, reason `corrupt`.
    const engine = error instanceof StoreFullError || error instanceof StoreDamagedError
    throw isWeftError(error) && !engine ? error : openFailure(options.path, error)
  }
}

// The adopted cut persisted in `db`, its heads read in one batch; undefined when none was adopted.
async function readAdopted(db: ChainDb, reads: BlockReads): Promise<Map<number, Header> | undefined> {
  const hashes = await readAdoptedCut(db)
  if (hashes === undefined) return undefined
  const heads = await reads.storedHeaders([...hashes.values()], 'pool')
  const cut = new Map<number, Header>()
  ;[...hashes].forEach(([chain, hash], index) => {
    const head = heads[index]
    if (head === undefined) throw new CorruptStoreError(`the adopted head ${hash.toString('base64url')} of chain ${chain} is not stored`)
    cut.set(chain, head.header)
  })
  return cut
}
