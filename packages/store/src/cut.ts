import { type Header, isBetterHead } from '@weft/block'
import type { BlockReads } from './block-reads.js'
import type { JoinedBlock, StoreEvent } from './chain-store.js'
import { CorruptStoreError } from './errors.js'
import { type ChainDb, chainOfHeadKey, headKey, headPrefix, type PutOperation } from './keys.js'
import type { LineReader } from './line-reader.js'
import type { RecentHeader } from './recent-headers.js'

/**
 * Decides whether a block just stored becomes the head of its chain: the seam where another way of
 * choosing the cut (one adopted from an upstream node, one across graph transitions) plugs in.
 */
export interface CutPolicy {
  /** Whether `header` replaces `current` (undefined when its chain has no head yet), given the whole cut `heads`. */
  takesHead(header: Header, current: Header | undefined, heads: ReadonlyMap<number, Header>): boolean
}

/** The default policy: each chain's head is its best block by `isBetterHead` (highest weight, ties to the lower raw hash). */
export const heaviestBlockPolicy: CutPolicy = {
  takesHead: (header, current) => current === undefined || isBetterHead(header, current),
}

/** The cut the store holds: the head of each chain, replaced (never mutated) when a batch moves it. */
export class Cut {
  readonly #policy: CutPolicy
  #heads: ReadonlyMap<number, Header>

  constructor(heads: ReadonlyMap<number, Header>, policy: CutPolicy = heaviestBlockPolicy) {
    this.#heads = heads
    this.#policy = policy
  }

  /** The current heads; a map handed out stays as it was when the cut moves on. */
  get heads(): ReadonlyMap<number, Header> {
    return this.#heads
  }

  /** A draft of the cut for one batch, starting from `base` (the draft of a batch still being written) or the current heads. */
  draft(base?: CutDraft): CutDraft {
    return new CutDraft(base?.heads ?? this.#heads, this.#policy)
  }

  /** Makes a written batch's draft the cut. */
  commit(draft: CutDraft): void {
    this.#heads = draft.heads
  }
}

/** The cut as a batch being prepared changes it. */
export class CutDraft {
  readonly #heads: Map<number, Header>
  readonly #policy: CutPolicy
  readonly #changed = new Set<number>()

  constructor(base: ReadonlyMap<number, Header>, policy: CutPolicy) {
    this.#heads = new Map(base)
    this.#policy = policy
  }

  /** The heads once the batch is written. */
  get heads(): ReadonlyMap<number, Header> {
    return this.#heads
  }

  /** Offers a block staged in the batch; when it becomes its chain's head, the `best` event with the blocks that joined. */
  async offer(entry: JoinedBlock, lines: (chain: number) => LineReader): Promise<StoreEvent | undefined> {
    const { header } = entry
    const current = this.#heads.get(header.chainId)
    if (!this.#policy.takesHead(header, current, this.#heads)) return undefined
    let joined: JoinedBlock[]
    // The usual case, a block on top of the head, needs no walk (and no await).
    if (current === undefined || header.parent.equals(current.hash)) joined = [entry]
    else {
      const reader = lines(header.chainId)
      try {
        joined = await joinedBlocks(entry, current, reader)
      } finally {
        await reader.close()
      }
    }
    this.#heads.set(header.chainId, header)
    this.#changed.add(header.chainId)
    return { type: 'best', chain: header.chainId, head: header, joined }
  }

  /** The writes that persist the heads this batch changed. */
  operations(): PutOperation[] {
    return [...this.#changed].map((chain) => ({ type: 'put', key: headKey(chain), value: this.#heads.get(chain)!.hash }))
  }
}

/**
 * The blocks that join the winning branch when `newHead` replaces `oldHead`: from the new head down
 * to the fork point with the old one, returned ancestors first. The higher line steps first (both
 * at equal heights), so the heights asked of `lines` never increase.
 */
export async function joinedBlocks(newHead: JoinedBlock, oldHead: Header, lines: LineReader): Promise<JoinedBlock[]> {
  const joined: JoinedBlock[] = []
  let onNew = newHead
  let onOld = { hash: oldHead.hash, parent: oldHead.parent, height: oldHead.height }
  while (!onNew.header.hash.equals(onOld.hash)) {
    const [newHeight, oldHeight] = [onNew.header.height, onOld.height]
    if (newHeight >= oldHeight) {
      joined.push(onNew)
      onNew = stored(await lines.block(onNew.header.parent, newHeight - 1), onNew.header.parent)
    }
    if (oldHeight >= newHeight) onOld = stored(await lines.ref(onOld.parent, oldHeight - 1), onOld.parent)
  }
  return joined.reverse()
}

function stored<T>(found: T | undefined, hash: Buffer): T {
  if (found === undefined) throw new CorruptStoreError(`ancestor ${hash.toString('base64url')} of a stored block is missing`)
  return found
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
