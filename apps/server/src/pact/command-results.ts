import type { IndexedBlock } from '@weft/store'

const QUOTE = 0x22
const BACKSLASH = 0x5c

// Where the JSON value that starts at `start` ends (exclusive). The text is a command result the store
// confirmed against its payload, so it is well-formed JSON: the scan only tracks strings and nesting.
function valueEnd(text: string, start: number): number {
  let depth = 0
  let index = start
  while (index < text.length) {
    const code = text.charCodeAt(index)
    if (code === QUOTE) {
      index += 1
      while (text.charCodeAt(index) !== QUOTE) index += text.charCodeAt(index) === BACKSLASH ? 2 : 1
      index += 1
      if (depth === 0) return index
      continue
    }
    if (code === 0x7b || code === 0x5b) depth += 1
    else if (code === 0x7d || code === 0x5d) {
      if (depth === 0) return index
      depth -= 1
      if (depth === 0) return index + 1
    } else if (depth === 0 && (code === 0x2c || code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09)) return index
    index += 1
  }
  return index
}

const skipSpace = (text: string, index: number): number => {
  let at = index
  while (/\s/.test(text.charAt(at))) at += 1
  return at
}

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
