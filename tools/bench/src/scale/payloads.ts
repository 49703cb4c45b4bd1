// Payloads shaped and sized like the real mainnet blocks of the repository's vectors: the empty
// block at 1000000 and the one-transfer block at 1000001, varied per block so that every block has
// a payload of its own (as on mainnet, where the coinbase output differs in every block).
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

// Replaces the 43-character request key (or hash) of a real text with one of the block's own, same length.
const vary = (text: string, tag: string): string =>
  text.replace(/[A-Za-z0-9_-]{43}/, Buffer.from(tag.padEnd(32, '.')).subarray(0, 32).toString('base64url'))

/** The payload of the block at `height` on `chain` with `transactions` transfers, unique to it: `salt` tells siblings apart. */
export function scalePayload(chain: number, height: number, transactions: number, salt = 0): PayloadWithOutputs {
  const tag = `${chain}:${height}:${salt}`
  return withPayloadHashes({
    transactions: Array.from({ length: transactions }, (_, index): [string, string] => [
      encode(vary(transaction, `${tag}:${index}`)),
      encode(vary(output, `${tag}:${index}`)),
    ]),
    minerData: empty.minerData,
    coinbase: encode(vary(coinbase, tag)),
  })
}
