import type { IndexedBlock } from '@weft/store'
import { skipSpace, valueEnd } from './json-members.js'

const QUOTE = 0x22

/**
 * The `metaData` the real node puts in a command result it answers (`enrichCR` of chainweb-node's
 * `Pact/RestAPI/Server.hs`): the block's height, creation time (microseconds), hash and parent, in
 * the order Pact's legacy JSON writes that object (unordered-containers 0.2.15's hash order:
 * blockTime, prevBlockHash, blockHash, blockHeight).
 */
export function blockMetadata(block: IndexedBlock): string {
  return `{"blockTime":${block.creationTime},"prevBlockHash":${JSON.stringify(block.parent)},"blockHash":${JSON.stringify(block.hash)},"blockHeight":${block.height}}`
}

/**
 * A stored command result (its JSON text, as the payload holds it) with its `metaData` replaced by
 * the block's, as `/poll` and `/listen` answer it. Every other byte is kept: amounts in events keep
 * their digits. A result without `metaData` gets it added last.
 */
export function withBlockMetadata(result: string, block: IndexedBlock): string {
  const metadata = blockMetadata(block)
  let index = skipSpace(result, result.indexOf('{') + 1)
  while (index < result.length && result.charCodeAt(index) === QUOTE) {
    const keyEnd = valueEnd(result, index)
    const key = JSON.parse(result.slice(index, keyEnd)) as string
    const valueStart = skipSpace(result, skipSpace(result, keyEnd) + 1)
    const end = valueEnd(result, valueStart)
    if (key === 'metaData') return `${result.slice(0, valueStart)}${metadata}${result.slice(end)}`
    const after = skipSpace(result, end)
    if (result.charCodeAt(after) !== 0x2c) break
    index = skipSpace(result, after + 1)
  }
  const close = result.lastIndexOf('}')
  const empty = result.slice(result.indexOf('{') + 1, close).trim() === ''
  return `${result.slice(0, close)}${empty ? '' : ','}"metaData":${metadata}${result.slice(close)}`
}
