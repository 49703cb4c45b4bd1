import type { AnyBlockHeader, AnyFullBlock, AnyHeaderUpdate } from '@weft/api'
import { type AnyHeaderJson, headerFromJson, powHashHex, targetHex } from '@weft/block'
import type { WeftClient } from '@weft/client'

// Hashes of the lines printed last, so that a catch-up does not print one twice (a block printed
// before the gap may lie on the branch the catch-up reads, below the last one printed).
const REMEMBERED = 4096

/**
 * The header updates of `chains` (all when empty), across reconnections: resumed by the node where
 * it can (nothing missed, nothing twice); where it cannot (its window passed, or it restarted), the
 * blocks missed are read with branch queries (each chain's winning branch from the last block seen
 * to its head now) and yielded as updates of the same shape, ancestors first, before the stream
 * goes on. Orphans inserted during such a gap are not among them.
 */
export async function* followUpdates(client: WeftClient, chains: readonly number[], signal: AbortSignal): AsyncGenerator<AnyHeaderUpdate> {
  const wanted = (chain: number) => chains.length === 0 || chains.includes(chain)
  const last = new Map<number, AnyBlockHeader>()
  const printed = new Set<string>()
  const remember = (header: AnyBlockHeader) => {
    last.set(header.chainId, header)
    printed.add(header.hash)
    if (printed.size > REMEMBERED) printed.delete(printed.values().next().value as string)
  }
  let connected = false
  for await (const event of client.headerEvents({ signal })) {
    if (event.type === 'update') {
      if (!wanted(event.update.header.chainId)) continue
      remember(event.update.header)
      yield event.update
    } else if (!event.resumed) {
      const heads = await client.heads(chains.length === 0 ? undefined : chains)
      // The first connection only notes where each chain stands: the catch-ups start there.
      if (connected) {
        for (const [chain, head] of heads) {
          const from = last.get(chain)
          if (from === undefined || from.hash === head.hash) continue
          const missed: AnyFullBlock[] = []
          for await (const block of client.branch(chain, { upper: [head.hash], lower: [from.hash] })) missed.push(block)
          for (const block of missed.reverse()) {
            if (printed.has(block.header.hash)) continue
            remember(block.header)
            yield updateOf(block)
          }
        }
      }
      for (const [chain, head] of heads) if (!last.has(chain)) last.set(chain, head)
      connected = true
    }
  }
}

// The update event data of a block read from a page: `{header, powHash, target, txCount}`.
function updateOf(block: AnyFullBlock): AnyHeaderUpdate {
  // featureFlags is exact text here, which the reader takes as it takes a number.
  const header = headerFromJson(block.header as unknown as AnyHeaderJson)
  return {
    header: block.header,
    powHash: powHashHex(header),
    target: targetHex(header.target),
    txCount: block.payloadWithOutputs.transactions.length,
  } as AnyHeaderUpdate
}
