import { decodeHeader } from '@weft/block'
import { mapKeyOfHash } from '@weft/hash-text'
import type { HeaderRef } from '@weft/traversal'
import type { JoinedBlock } from './chain-store.js'
import { DescendingScan } from './descending-scan.js'
import { type ChainDb, decodeBlockRecord, hashOfBlockKey, parentOfBlockRecord } from './keys.js'

/** Blocks a walk finds in memory before it reads the database (staged, in flight, recent), by `mapKeyOfHash`. */
export type KnownBlocks = (key: string) => JoinedBlock | undefined

/**
 * Finds the blocks of one chain that a walk down parent links asks for, heights never increasing:
 * in memory when it can, otherwise from one `DescendingScan` opened at the first height memory
 * could not answer. Call `close` when the walk ends.
 */
export class LineReader {
  readonly #db: ChainDb
  readonly #chain: number
  readonly #known: KnownBlocks
  #scan: DescendingScan | undefined

  constructor(db: ChainDb, chain: number, known: KnownBlocks) {
    this.#db = db
    this.#chain = chain
    this.#known = known
  }

  /** Block `hash` at `height` with its JSON and transaction count, or `undefined` when it is not stored. */
  async block(hash: Buffer, height: number): Promise<JoinedBlock | undefined> {
    const known = this.#known(mapKeyOfHash(hash))
    if (known !== undefined) return known
    const entry = await this.#find(hash, height)
    if (entry === undefined) return undefined
    const record = decodeBlockRecord(entry[1])
    return { header: decodeHeader(record.headerBinary), headerJson: record.headerJson, txCount: record.txCount }
  }

  /** The ref of block `hash` at `height` (no header decoded), or `undefined` when it is not stored. */
  async ref(hash: Buffer, height: number): Promise<HeaderRef | undefined> {
    const known = this.#known(mapKeyOfHash(hash))
    if (known !== undefined)
      return { hash: known.header.hash, parent: known.header.parent, height: known.header.height, chainId: known.header.chainId }
    const entry = await this.#find(hash, height)
    if (entry === undefined) return undefined
    return { hash: hashOfBlockKey(entry[0]), parent: parentOfBlockRecord(entry[1]), height, chainId: this.#chain }
  }

  /** Releases the scan, if one was opened. */
  async close(): Promise<void> {
    await this.#scan?.close()
  }

  #find(hash: Buffer, height: number): Promise<[Buffer, Buffer] | undefined> {
    this.#scan ??= new DescendingScan(this.#db, this.#chain, height, 0)
    return this.#scan.find(hash, height)
  }
}
