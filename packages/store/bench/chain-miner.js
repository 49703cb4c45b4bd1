// Mines valid blocks for the benchmarks (plain JavaScript: benchmarks run built code with node).
// The same rules as test/fixtures/chain-miner.ts; @weft/devnet is not used because it depends on us.
import { adjacentChainsAt, decodeHash, MAX_U256, mineChildHeader, withPayloadHashes } from '@weft/block'

/** A payload with `transactions` made-up transactions; a distinct `tag` gives a distinct payload hash. */
export function makePayload(tag, transactions = 0) {
  const text = (value) => Buffer.from(JSON.stringify(value)).toString('base64url')
  return withPayloadHashes({
    transactions: Array.from({ length: transactions }, (_, i) => [text({ tx: i, tag }), text({ result: i, tag })]),
    minerData: text({ account: `miner-${tag}` }),
    coinbase: text({ coinbase: tag }),
  })
}

/** A valid child of `parent` with difficulty 1 (every nonce passes); adjacents name the parent's hash. */
export function mineChild(network, parent, payload) {
  const height = parent.height + 1
  const header = mineChildHeader(parent, {
    creationTime: parent.creationTime + network.blockDelay * 1_000_000,
    adjacents: (adjacentChainsAt(network, parent.chainId, height) ?? []).map((chain) => [chain, parent.hash]),
    target: MAX_U256,
    payloadHash: decodeHash(payload.payloadHash),
  })
  return { header, payload }
}

/** The next `count` blocks over all chains of the cut, round-robin; `tips` (chain -> header) is advanced. */
export function mineRound(network, tips, count, tagPrefix) {
  const blocks = []
  const chains = [...tips.keys()].sort((a, b) => a - b)
  for (let i = 0; i < count; i++) {
    const chain = chains[i % chains.length]
    const block = mineChild(network, tips.get(chain), makePayload(`${tagPrefix}-${i}`, 1))
    tips.set(chain, block.header)
    blocks.push(block)
  }
  return blocks
}
