import { type Header, isBetterHead } from '@weft/block'
import type { BlockReads } from './block-reads.js'
import { CorruptStoreError } from './errors.js'
import { type ChainDb, chainOfHeadKey, headKey, headPrefix, type PutOperation } from './keys.js'
import type { RecentHeader } from './recent-headers.js'

/** The best stored block of every chain (highest weight, ties to the lower raw hash), replaced (never mutated) when a batch moves one. */
export class ChainHeads {
  #heads: ReadonlyMap<number, Header>

  constructor(heads: ReadonlyMap<number, Header>) {
    this.#heads = heads
  }

  /** The current heads; a map handed out stays as it was when a head moves on. */
  get heads(): ReadonlyMap<number, Header> {
    return this.#heads
  }

  /** A draft of the heads for one batch, starting from `base` (the draft of a batch still being written) or the current heads. */
  draft(base?: HeadsDraft): HeadsDraft {
    return new HeadsDraft(base?.heads ?? this.#heads)
  }

  /** Makes a written batch's draft the heads. */
  commit(draft: HeadsDraft): void {
    this.#heads = draft.heads
  }
}

/** The heads as a batch being prepared changes them. */
export class HeadsDraft {
  readonly #heads: Map<number, Header>
  readonly #changed = new Set<number>()

  constructor(base: ReadonlyMap<number, Header>) {
    this.#heads = new Map(base)
  }

  /** The heads once the batch is written. */
  get heads(): ReadonlyMap<number, Header> {
    return this.#heads
  }

  /** Offers a block staged in the batch; whether it became its chain's head. */
  offer(header: Header): boolean {
    const current = this.#heads.get(header.chainId)
    if (current !== undefined && !isBetterHead(header, current)) return false
    this.#heads.set(header.chainId, header)
    this.#changed.add(header.chainId)
    return true
  }

  /** The writes that persist the heads this batch changed. */
  operations(): PutOperation[] {
    return [...this.#changed].map((chain) => ({ type: 'put', key: headKey(chain), value: this.#heads.get(chain)!.hash }))
  }
}

/** The persisted heads, read with one iteration over the head keys and one batched read of their blocks. */
export async function readHeads(db: ChainDb, reads: BlockReads): Promise<Map<number, RecentHeader>> {
  const entries = await db.iterator({ gte: Buffer.of(headPrefix), lt: Buffer.of(headPrefix + 1) }).all()
  const blocks = await reads.storedHeaders(
    entries.map(([, hash]) => hash),
    'pool',
  )
  const heads = new Map<number, RecentHeader>()
  entries.forEach(([key, hash], index) => {
    const head = blocks[index]
    if (head === undefined)
      throw new CorruptStoreError(`the best head ${hash.toString('base64url')} of chain ${chainOfHeadKey(key)} is not stored`)
    heads.set(chainOfHeadKey(key), head)
  })
  return heads
}
