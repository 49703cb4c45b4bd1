import { parseJsonExact } from '@weft/api'
import type { ChainwebFullBlock, FullBlock, Profile } from '@weft/types'
import { InvalidEncodingError } from './errors.js'
import type { Block } from './header.js'
import { headerFromJson, headerToJson, headerToJsonText } from './header-json.js'

/** A block from its full-block JSON object in either profile. The payload object is kept as given. */
export function blockFromJson(o: FullBlock | ChainwebFullBlock): Block {
  if (typeof o !== 'object' || o === null || typeof o.payloadWithOutputs !== 'object' || o.payloadWithOutputs === null) {
    throw new InvalidEncodingError('Expected a full block object with header and payloadWithOutputs')
  }
  return { header: headerFromJson(o.header), payload: o.payloadWithOutputs }
}

/** A block from its full-block JSON text, featureFlags exact. */
export function blockFromJsonText(text: string | Uint8Array): Block {
  return blockFromJson(parseJsonExact(text) as FullBlock)
}

/** The full-block JSON object for a profile: `{header, payloadWithOutputs}`. */
export function blockToJson(b: Block, profile: 'spec'): FullBlock
export function blockToJson(b: Block, profile: 'chainweb'): ChainwebFullBlock
export function blockToJson(b: Block, profile: Profile): FullBlock | ChainwebFullBlock
export function blockToJson(b: Block, profile: Profile): FullBlock | ChainwebFullBlock {
  return { header: headerToJson(b.header, profile), payloadWithOutputs: b.payload } as FullBlock | ChainwebFullBlock
}

/** The full-block JSON text for a profile, featureFlags exact; the payload keys in the canonical order. */
export function blockToJsonText(b: Block, profile: Profile): string {
  return `{"header":${headerToJsonText(b.header, profile)},"payloadWithOutputs":${payloadToJsonText(b.payload)}}`
}

// Characters that JSON writes as they are inside a string: every base64url text is made of them.
const plainJsonString = /^[A-Za-z0-9_=-]*$/

// `"text"` when JSON.stringify would write exactly that, else undefined.
function plainString(text: unknown): string | undefined {
  return typeof text === 'string' && plainJsonString.test(text) ? `"${text}"` : undefined
}

// The payload text by concatenation, when every field is a plain string and every transaction a
// pair of them (as in every valid payload); undefined otherwise.
function plainPayloadText(p: FullBlock['payloadWithOutputs']): string | undefined {
  if (!Array.isArray(p.transactions)) return undefined
  let transactions = ''
  for (const pair of p.transactions as unknown[]) {
    if (!Array.isArray(pair) || pair.length !== 2) return undefined
    const transaction = plainString(pair[0])
    const output = plainString(pair[1])
    if (transaction === undefined || output === undefined) return undefined
    transactions += `${transactions === '' ? '' : ','}[${transaction},${output}]`
  }
  const fields = [p.minerData, p.transactionsHash, p.outputsHash, p.payloadHash, p.coinbase].map(plainString)
  if (fields.includes(undefined)) return undefined
  const [minerData, transactionsHash, outputsHash, payloadHash, coinbase] = fields
  return `{"transactions":[${transactions}],"minerData":${minerData},"transactionsHash":${transactionsHash},"outputsHash":${outputsHash},"payloadHash":${payloadHash},"coinbase":${coinbase}}`
}

/** Payload-with-outputs JSON text with keys in the canonical order, whatever order the object has. */
export function payloadToJsonText(p: FullBlock['payloadWithOutputs']): string {
  // Concatenation skips building an object and escaping strings that need none: about half the cost.
  return (
    plainPayloadText(p) ??
    JSON.stringify({
      transactions: p.transactions,
      minerData: p.minerData,
      transactionsHash: p.transactionsHash,
      outputsHash: p.outputsHash,
      payloadHash: p.payloadHash,
      coinbase: p.coinbase,
    })
  )
}
