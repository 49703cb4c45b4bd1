import { cutChains, genesisHeight, type Header, type Network } from '@weft/block'
import type { CutPolicy, JoinedBlock } from './chain-store.js'
import { CorruptStoreError } from './errors.js'
import { type ChainDb, metaKey } from './keys.js'
import type { LineReader } from './line-reader.js'

/** The meta record of an adopted cut: `chain u32 | hash 32` per head, chains ascending. */
export const adoptedCutKey = metaKey('cut')

/** The node's cut of `network` that the chains' best `heads` give: the chains of the graph at the lowest head. */
export function forkChoiceCut(network: Network, heads: ReadonlyMap<number, Header>): ReadonlyMap<number, Header> {
  const heights = new Map([...heads].map(([chain, head]) => [chain, head.height]))
  return new Map(cutChains(network, heights).map((chain) => [chain, heads.get(chain)!]))
}

/** Whether two cuts name the same head on the same chains. */
export function sameCut(a: ReadonlyMap<number, Header>, b: ReadonlyMap<number, Header>): boolean {
  if (a.size !== b.size) return false
  for (const [chain, head] of a) if (!b.get(chain)?.hash.equals(head.hash)) return false
  return true
}

/** The write that persists an adopted cut. */
export function adoptedCutOperation(cut: ReadonlyMap<number, Header>): { type: 'put'; key: Buffer; value: Buffer } {
  const chains = [...cut.keys()].sort((a, b) => a - b)
  const value = Buffer.alloc(chains.length * 36)
  chains.forEach((chain, index) => {
    value.writeUInt32BE(chain, index * 36)
    cut.get(chain)!.hash.copy(value, index * 36 + 4)
  })
  return { type: 'put', key: adoptedCutKey, value }
}

/** The hashes of the adopted cut persisted in `db`, by chain, or undefined when none was adopted yet. */
export async function readAdoptedCut(db: ChainDb): Promise<Map<number, Buffer> | undefined> {
  const value = await db.get(adoptedCutKey)
  if (value === undefined) return undefined
  if (value.length % 36 !== 0) throw new CorruptStoreError(`the adopted cut record has ${value.length} bytes, not a multiple of 36`)
  const hashes = new Map<number, Buffer>()
  for (let at = 0; at < value.length; at += 36) hashes.set(value.readUInt32BE(at), Buffer.from(value.subarray(at + 4, at + 36)))
  return hashes
}

/**
 * The blocks that join the cut when it moves from `before` to `after`, ancestors first: on each chain
 * of `after`, from the fork point with the chain's old head up to its new head, or from the chain's
 * genesis block up when it enters the cut (at a graph transition). Ordered by height, then chain, so
 * that every block comes after its parent and after the neighbours it names; each block once.
 */
export async function cutJoined(
  network: Network,
  before: ReadonlyMap<number, Header>,
  after: ReadonlyMap<number, Header>,
  lines: (chain: number) => LineReader,
): Promise<JoinedBlock[]> {
  const joined: JoinedBlock[] = []
  for (const [chain, head] of after) {
    const old = before.get(chain)
    if (old?.hash.equals(head.hash)) continue
    const reader = lines(chain)
    try {
      joined.push(...(await lineUp(reader, head, old, genesisHeight(network, chain))))
    } finally {
      await reader.close()
    }
  }
  return joined.sort((a, b) => a.header.height - b.header.height || a.header.chainId - b.header.chainId)
}

// The blocks from `head` down to (not including) the fork point with `old`, or down to the genesis
// height when there is no old head; returned ancestors first. The higher line steps first.
async function lineUp(lines: LineReader, head: Header, old: Header | undefined, genesis: number): Promise<JoinedBlock[]> {
  const blocks: JoinedBlock[] = []
  let onNew = stored(await lines.block(head.hash, head.height), head.hash)
  let onOld = old === undefined ? undefined : { hash: old.hash, parent: old.parent, height: old.height }
  for (;;) {
    const newHeight = onNew.header.height
    if (onOld === undefined) {
      blocks.push(onNew)
      if (newHeight <= genesis) break
      onNew = stored(await lines.block(onNew.header.parent, newHeight - 1), onNew.header.parent)
      continue
    }
    if (onNew.header.hash.equals(onOld.hash)) break
    const oldHeight = onOld.height
    if (newHeight >= oldHeight) {
      blocks.push(onNew)
      onNew = stored(await lines.block(onNew.header.parent, newHeight - 1), onNew.header.parent)
    }
    if (oldHeight >= newHeight) onOld = stored(await lines.ref(onOld.parent, oldHeight - 1), onOld.parent)
  }
  return blocks.reverse()
}

function stored<T>(found: T | undefined, hash: Buffer): T {
  if (found === undefined) throw new CorruptStoreError(`ancestor ${hash.toString('base64url')} of a stored block is missing`)
  return found
}

/** The node's cut as the store holds it: its policy and its current heads, replaced (never mutated) when it moves. */
export class NodeCut {
  readonly policy: CutPolicy
  #cut: ReadonlyMap<number, Header>

  constructor(policy: CutPolicy, cut: ReadonlyMap<number, Header>) {
    this.policy = policy
    this.#cut = cut
  }

  /** The current cut; a map handed out stays as it was when the cut moves on. */
  get cut(): ReadonlyMap<number, Header> {
    return this.#cut
  }

  /** Makes `cut` (already written) the node's cut. */
  move(cut: ReadonlyMap<number, Header>): void {
    this.#cut = cut
  }
}
