// Payloads shaped and sized like the real mainnet blocks of the repository's vectors: the empty
// block at 1000000 and the one-transfer block at 1000001, varied per block so that every block has
// a payload of its own (as on mainnet, where the coinbase output differs in every block). Those
// blocks are of 2020, before Pact had events; as today's mainnet outputs do, each transaction's
// output carries the coin.TRANSFER events of its gas and its transfer, and the coinbase's its reward,
// between accounts drawn from a pool, so that the transaction index holds events and transfers.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { withPayloadHashes } from '@weft/block'
import type { ChainwebFullBlock, PayloadWithOutputs } from '@weft/types'
import { repoRoot } from '../paths.js'

const vectors = JSON.parse(readFileSync(join(repoRoot, 'fixtures/vectors/mainnet-blocks.json'), 'utf8')) as ChainwebFullBlock[]
const decode = (text: string): string => Buffer.from(text, 'base64url').toString('utf8')
const encode = (text: string): string => Buffer.from(text).toString('base64url')
const [empty, withTransfer] = vectors.map((block) => block.payloadWithOutputs) as [PayloadWithOutputs, PayloadWithOutputs]
const coinbase = decode(empty.coinbase)
const [transaction, output] = withTransfer.transactions[0]!.map(decode) as [string, string]

// Share of blocks by transaction count: most mainnet blocks carry none, a few carry several.
const shares: ReadonlyArray<readonly [transactions: number, share: number]> = [
  [0, 0.7],
  [1, 0.22],
  [2, 0.05],
  [4, 0.03],
]

/** How many transactions a block gets, from a uniform draw in [0, 1). */
export function transactionCount(draw: number): number {
  let sum = 0
  for (const [count, share] of shares) {
    sum += share
    if (draw < sum) return count
  }
  return 0
}

// Replaces the 43-character request key (or hash) of a real text with one of the block's own: the
// SHA-256 of its tag, so that request keys spread over the whole key space as real ones (hashes) do.
const vary = (text: string, tag: string): string => text.replace(/[A-Za-z0-9_-]{43}/, createHash('sha256').update(tag).digest('base64url'))

// Accounts of the pool the transfers are drawn from: k: and 64 hex digits, like most mainnet accounts.
const ACCOUNTS = 10_000
const account = (n: number): string => `k:${(n % ACCOUNTS).toString(16).padStart(64, '0')}`
const coinTransfer = (sender: string, receiver: string, amount: number): Record<string, unknown> => ({
  params: [sender, receiver, amount],
  name: 'TRANSFER',
  module: { namespace: null, name: 'coin' },
  moduleHash: 'klFkrLfpyLW-M3xjVPSdqXEMgxPPJibRt_D6qiBws6s',
})
// An output (the vector's JSON text) with these events.
const withEvents = (text: string, events: ReadonlyArray<Record<string, unknown>>): string =>
  JSON.stringify({ ...(JSON.parse(text) as Record<string, unknown>), events })

/** The payload of the block at `height` on `chain` with `transactions` transfers, unique to it: `salt` tells siblings apart. */
export function scalePayload(chain: number, height: number, transactions: number, salt = 0): PayloadWithOutputs {
  const tag = `${chain}:${height}:${salt}`
  const miner = account(chain * 7919 + height)
  return withPayloadHashes({
    transactions: Array.from({ length: transactions }, (_, index): [string, string] => {
      const sender = account(height * 31 + chain * 17 + index)
      const events = [coinTransfer(sender, miner, 0.0001), coinTransfer(sender, account(height * 7 + index * 13 + chain), 1.5 + index)]
      return [encode(vary(transaction, `${tag}:${index}`)), encode(withEvents(vary(output, `${tag}:${index}`), events))]
    }),
    minerData: empty.minerData,
    coinbase: encode(withEvents(vary(coinbase, tag), [coinTransfer('', miner, 0.9856)])),
  })
}
