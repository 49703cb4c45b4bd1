// Mines the mainnet-shaped blocks of the scale store: every chain in lockstep, braided across the
// graph transition, with orphan siblings and payloads of real sizes, under the network's rules.
// Deterministic: a block depends on the seed, its chain and its height, so a fill can resume from
// the store's heads.
import { createHash } from 'node:crypto'
import { type Block, blockAdjacentChains, type Header, mineChildHeader, type Network, networkOpening } from '@weft/block'
import { decodeHash } from '@weft/hash-text'
import { scalePayload, transactionCount } from './payloads.js'

/** A deterministic draw in [0, 1) for `seed`, `chain`, `height` and `what`. */
export function draw(seed: string, chain: number, height: number, what: string): number {
  return createHash('sha256').update(`${seed}/${chain}/${height}/${what}`).digest().readUInt32BE(0) / 2 ** 32
}

/**
 * The blocks of heights `from + 1` to `to` on every chain of `tips` (chain -> main-line head at its
 * height), and the new tips. The network's opening (recap-development's first 71 heights, mined once
 * under its real genesis targets) gives the blocks it holds; above it, each block is created one
 * block delay after its parent, every chain alike, so that the difficulty adjustment keeps the
 * opening's easy target, and a fork's two siblings weigh the same: the lower hash is the main line,
 * as fork choice has it.
 */
export function mineHeights(
  network: Network,
  tips: ReadonlyMap<number, Header>,
  to: number,
  seed: string,
  forkRate: number,
): { blocks: Block[]; tips: Map<number, Header> } {
  const next = new Map(tips)
  const at = new Map<string, Header>()
  const opening = new Map(networkOpening(network).map((block) => [`${block.header.chainId}:${block.header.height}`, block]))
  for (const tip of next.values()) at.set(`${tip.chainId}:${tip.height}`, tip)
  const chains = [...next.keys()].sort((a, b) => a - b)
  const blocks: Block[] = []
  const lowest = Math.min(...[...next.values()].map((tip) => tip.height))
  const delay = network.blockDelay * 1_000_000
  for (let height = lowest + 1; height <= to; height++) {
    for (const chain of chains) {
      const parent = next.get(chain)!
      if (parent.height !== height - 1) continue
      const opened = opening.get(`${chain}:${height}`)
      if (opened?.header.parent.equals(parent.hash)) {
        blocks.push(opened)
        next.set(chain, opened.header)
        at.set(`${chain}:${height}`, opened.header)
        continue
      }
      const adjacentParents = blockAdjacentChains(network, chain, height)!.map((neighbour) => at.get(`${neighbour}:${height - 1}`)!)
      const creationTime = Math.max(parent.creationTime + delay, ...adjacentParents.map((a) => a.creationTime + 1))
      const mine = (salt: number): Block => {
        const payload = scalePayload(chain, height, transactionCount(draw(seed, chain, height, `txs${salt}`)), salt)
        const header = mineChildHeader(parent, { creationTime, adjacentParents, payloadHash: decodeHash(payload.payloadHash) })
        return { header, payload }
      }
      const mined = draw(seed, chain, height, 'fork') < forkRate ? [mine(0), mine(1)] : [mine(0)]
      const main = mined.reduce((a, b) => (Buffer.compare(b.header.hash, a.header.hash) < 0 ? b : a))
      blocks.push(...mined)
      next.set(chain, main.header)
      at.set(`${chain}:${height}`, main.header)
    }
  }
  return { blocks, tips: next }
}
