// Mines the mainnet-shaped blocks of the scale store: every chain in lockstep, braided across the
// graph transition, with lighter orphan siblings and payloads of real sizes. Deterministic: a
// block depends on the seed, its chain and its height, so a fill can resume from the store's heads.
import { createHash } from 'node:crypto'
import { type Block, blockAdjacentChains, type Header, MAX_U256, mineChildHeader, type Network } from '@weft/block'
import { decodeHash } from '@weft/hash-text'
import { scalePayload, transactionCount } from './payloads.js'

// Main blocks weigh 2, orphans 1: an orphan never becomes a head, so the heads are the main line.
const mainTarget = MAX_U256 >> 1n
const orphanTarget = MAX_U256
const blockDelay = 30_000_000

/** A deterministic draw in [0, 1) for `seed`, `chain`, `height` and `what`. */
export function draw(seed: string, chain: number, height: number, what: string): number {
  return createHash('sha256').update(`${seed}/${chain}/${height}/${what}`).digest().readUInt32BE(0) / 2 ** 32
}

/** The blocks of heights `from + 1` to `to` on every chain of `tips` (chain -> main-line head at its height), and the new tips. */
export function mineHeights(
  network: Network,
  tips: ReadonlyMap<number, Header>,
  to: number,
  seed: string,
  forkRate: number,
): { blocks: Block[]; tips: Map<number, Header> } {
  const next = new Map(tips)
  const at = new Map<string, Buffer>()
  for (const tip of next.values()) at.set(`${tip.chainId}:${tip.height}`, tip.hash)
  const chains = [...next.keys()].sort((a, b) => a - b)
  const blocks: Block[] = []
  const lowest = Math.min(...[...next.values()].map((tip) => tip.height))
  for (let height = lowest + 1; height <= to; height++) {
    for (const chain of chains) {
      const parent = next.get(chain)!
      if (parent.height !== height - 1) continue
      const adjacents = blockAdjacentChains(network, chain, height)!.map(
        (neighbour) => [neighbour, at.get(`${neighbour}:${height - 1}`)!] as const,
      )
      const mine = (target: bigint, salt: number): Block => {
        const payload = scalePayload(chain, height, transactionCount(draw(seed, chain, height, `txs${salt}`)), salt)
        const header = mineChildHeader(parent, {
          creationTime: parent.creationTime + blockDelay + Math.floor(draw(seed, chain, height, 'time') * 1_000_000),
          adjacents,
          target,
          payloadHash: decodeHash(payload.payloadHash),
        })
        return { header, payload }
      }
      const main = mine(mainTarget, 0)
      blocks.push(main)
      if (draw(seed, chain, height, 'fork') < forkRate) blocks.push(mine(orphanTarget, 1))
      next.set(chain, main.header)
      at.set(`${chain}:${height}`, main.header.hash)
    }
  }
  return { blocks, tips: next }
}
