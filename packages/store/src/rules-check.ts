import { allChains, braidingViolations, decodeHeader, genesisHeight, type Header, type Network, validateHeader } from '@weft/block'
import { mapKeyOfHash } from '@weft/hash-text'
import type { Iterator } from 'classic-level'
import type { BlockReads } from './block-reads.js'
import { BrokenRulesError } from './errors.js'
import { blockKeyHigh, blockKeyLow, type ChainDb, decodeBlockRecord, heightOfBlockKey, metaKey } from './keys.js'

/** The rules a store's blocks were checked by, recorded in the store (`m rules`). */
export const RULES_VERSION = 'chainweb-node 3.2'

/** How far the check of a store's blocks went: every block below `height` is checked, of `top`. */
export interface RulesCheckProgress {
  readonly height: number
  readonly top: number
  /** Blocks checked since this check started (a resumed check counts from where it resumed). */
  readonly blocks: number
}

// Hashes and proofs of work were checked when the blocks were written; the rules around them are what is new.
const hashesChecked = { blockHash: undefined, pow: undefined }
const entriesPerRead = 512

// One chain's blocks in ascending height, read ahead by batches.
class ChainCursor {
  readonly #iterator: Iterator<ChainDb, Buffer, Buffer>
  #entries: Array<[Buffer, Buffer]> = []
  #at = 0
  #done = false

  constructor(db: ChainDb, chain: number, from: number) {
    this.#iterator = db.iterator({ gte: blockKeyLow(chain, from), lte: blockKeyHigh(chain, Number.MAX_SAFE_INTEGER) })
  }

  /** The height of the next block, or undefined when the chain has no more. */
  async peek(): Promise<number | undefined> {
    if (this.#at === this.#entries.length && !this.#done) {
      this.#entries = await this.#iterator.nextv(entriesPerRead)
      this.#at = 0
      this.#done = this.#entries.length === 0
    }
    const entry = this.#entries[this.#at]
    return entry === undefined ? undefined : heightOfBlockKey(entry[0])
  }

  /** The next block's header (after `peek` said there is one). */
  take(): Header {
    const [, value] = this.#entries[this.#at++]!
    return decodeHeader(decodeBlockRecord(value).headerBinary)
  }

  close(): Promise<void> {
    return this.#iterator.close()
  }
}

/** Where `checkStoredRules` reports: the store's folder (for messages), its highest block, and progress. */
export interface RulesCheckOptions {
  readonly path: string
  readonly top: number
  readonly onProgress?: ((progress: RulesCheckProgress) => void) | undefined
  /** The heights done are recorded (and reported) at most this often, and at the end, so that a killed check resumes near where it stopped. */
  readonly recordEveryMs?: number
}

/**
 * Checks every block of a store written before it recorded `RULES_VERSION` by the rules of
 * `validateHeader` and the braiding rule, height by height over every chain (a block's parent and
 * adjacent parents are one height below it), then records the version. Resumable: the heights done
 * are recorded as it goes, and a check started again continues from there. Throws
 * `BrokenRulesError` (nothing changed but the heights done) at the first block that breaks a rule.
 */
export async function checkStoredRules(db: ChainDb, reads: BlockReads, network: Network, options: RulesCheckOptions): Promise<void> {
  const { path, top, onProgress, recordEveryMs = 1000 } = options
  const from = Number((await db.get(metaKey('rules-check')))?.toString() ?? 0)
  const cursors = allChains(network).map((chain) => new ChainCursor(db, chain, Math.max(0, from - 1)))
  let below = new Map<string, Header>()
  let blocks = 0
  let recorded = Date.now()
  try {
    for (;;) {
      const heights = (await Promise.all(cursors.map((cursor) => cursor.peek()))).filter((h) => h !== undefined)
      if (heights.length === 0) break
      const height = Math.min(...heights)
      const level = new Map<string, Header>()
      for (const cursor of cursors)
        while ((await cursor.peek()) === height) {
          const header = cursor.take()
          level.set(mapKeyOfHash(header.hash), header)
        }
      if (height >= from) {
        for (const header of level.values()) await checkOne(header, below, reads, network, path)
        blocks += level.size
      }
      below = level
      if (Date.now() - recorded >= recordEveryMs) {
        await db.put(metaKey('rules-check'), Buffer.from(String(height + 1)))
        recorded = Date.now()
        onProgress?.({ height: height + 1, top, blocks })
      }
    }
  } finally {
    await Promise.all(cursors.map((cursor) => cursor.close()))
  }
  await db.batch([
    { type: 'put', key: metaKey('rules'), value: Buffer.from(RULES_VERSION) },
    { type: 'del', key: metaKey('rules-check') },
  ])
  onProgress?.({ height: top + 1, top, blocks })
}

// One block against the blocks one height below it (read from the store when not there: only a
// store that took blocks without braiding has adjacents elsewhere, and the braiding rule refuses them).
async function checkOne(
  header: Header,
  below: ReadonlyMap<string, Header>,
  reads: BlockReads,
  network: Network,
  path: string,
): Promise<void> {
  if (genesisHeight(network, header.chainId) === header.height) return
  const find = async (hash: Buffer): Promise<Header | undefined> =>
    below.get(mapKeyOfHash(hash)) ?? (await reads.storedHeaders([hash], 'near'))[0]?.header
  const parent = await find(header.parent)
  const adjacentParents: Header[] = []
  for (const [, hash] of header.adjacents) {
    const found = await find(hash)
    if (found !== undefined) adjacentParents.push(found)
  }
  const violations = [
    ...validateHeader(header, { network, parent, adjacentParents, now: Number.MAX_SAFE_INTEGER, work: hashesChecked }),
    ...braidingViolations(header, adjacentParents),
  ]
  if (violations.length > 0) throw new BrokenRulesError(path, header, violations)
}
