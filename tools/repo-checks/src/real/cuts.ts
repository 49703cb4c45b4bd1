// Real /cut answers: the id is the SHA-512/256 of the heads' raw hashes in the order the node wrote
// them (older releases wrote another chain order than today's), and the height their sum.
import { createHash } from 'node:crypto'
import { inChainwebNodeOrder } from '@weft/block'
import { decodeHash } from '@weft/hash-text'
import type { CutText } from './sources.js'

/** The heads of a cut text in the order written (JSON.parse would put the integer keys ascending). */
export function writtenHeads(text: string): Array<{ chain: number; height: number; hash: string }> {
  const start = text.indexOf('"hashes"')
  const body = text.slice(text.indexOf('{', start) + 1)
  const heads: Array<{ chain: number; height: number; hash: string }> = []
  const entry = /\s*"(\d+)"\s*:\s*\{\s*"height"\s*:\s*(\d+)\s*,\s*"hash"\s*:\s*"([A-Za-z0-9_-]+)"\s*\}\s*(,|\})/y
  for (let match = entry.exec(body); match !== null; match = entry.exec(body)) {
    heads.push({ chain: Number(match[1]), height: Number(match[2]), hash: match[3]! })
    if (match[4] === '}') break
  }
  return heads
}

const idOf = (heads: ReadonlyArray<{ hash: string }>): string =>
  createHash('sha512-256')
    .update(Buffer.concat(heads.map((head) => decodeHash(head.hash))))
    .digest('base64url')

/**
 * Checks each cut's id and height against its heads in their written order. A text that lists the
 * chains sorted (a README's copy of the final mainnet cut) is no node's order: its id must recompute
 * in chainweb-node's order (`inChainwebNodeOrder`), and is counted apart.
 */
export function replayCuts(cuts: readonly CutText[], count: (what: string, n?: number) => void, problem: (text: string) => void): void {
  for (const { file, text } of cuts) {
    const heads = writtenHeads(text)
    const { id, height } = JSON.parse(text) as { id: string; height: number }
    const sum = heads.reduce((total, head) => total + head.height, 0)
    const byChain = new Map(heads.map((head) => [head.chain, head]))
    const sorted = heads.every((head, i) => i === 0 || head.chain > heads[i - 1]!.chain)
    const nodeOrder = inChainwebNodeOrder(byChain.keys()).map((chain) => byChain.get(chain)!)
    if (heads.length > 0 && idOf(heads) === id && sum === height) count('cuts whose id and height recompute in their written chain order')
    else if (heads.length > 0 && sorted && idOf(nodeOrder) === id && sum === height)
      count("cuts written with the chains sorted whose id recomputes in chainweb-node's order")
    else
      problem(
        `${file}: the id ${id} and height ${height} do not recompute from the ${heads.length} heads in their written order (${idOf(heads)}, ${sum})`,
      )
  }
}
