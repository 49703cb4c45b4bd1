import type { ProfileRules } from '../profile/profiles.js'
import {
  realCut,
  realHeader,
  realHeaderBinary,
  realHeaderUpdate,
  realInfo,
  realParentHash,
  realPayloadWithOutputs,
} from './openapi-real-answers.js'

type Json = Record<string, unknown>

// The real node's header in a profile: the spec profile names the network field `chainVersion`, in the same place.
function headerOf(rules: ProfileRules, header: Json = realHeader): Json {
  return Object.fromEntries(Object.entries(header).map(([key, value]) => [key === 'chainwebVersion' ? rules.versionKey : key, value]))
}

// The chainweb profile's event data: every object's keys in text order (docs/wire/chainweb-quirks.md).
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys)
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortedKeys((value as Json)[key])]),
  )
}

/** The examples of a profile's document, built from real answers of chainweb-node (openapi-real-answers.ts). */
export function examplesOf(rules: ProfileRules) {
  const header = headerOf(rules)
  const next = `inclusive:${realParentHash}`
  const { coinbase: _, ...withoutCoinbase } = realPayloadWithOutputs
  const payload = { ...withoutCoinbase, transactions: realPayloadWithOutputs.transactions.map(([transaction]) => transaction) }
  const update = { ...realHeaderUpdate, header: headerOf(rules, realHeaderUpdate.header) }
  const data = rules.name === 'chainweb' ? sortedKeys(update) : update
  // The first transaction's output as /poll answers it: the block's metadata in place of the stored null.
  const [[, output = ''] = []] = realPayloadWithOutputs.transactions
  const stored = JSON.parse(Buffer.from(output, 'base64url').toString('utf8')) as Json
  const metaData = {
    blockTime: realHeader.creationTime,
    prevBlockHash: realHeader.parent,
    blockHash: realHeader.hash,
    blockHeight: realHeader.height,
  }
  const commandResult = { ...stored, metaData }
  return {
    header,
    headerBinaryText: realHeaderBinary,
    blockPage: { limit: 1, items: [{ header, payloadWithOutputs: realPayloadWithOutputs }], next },
    headerPage: { limit: 1, items: [realHeaderBinary], next },
    headerObjectPage: { limit: 1, items: [header], next },
    hashPage: { limit: 2, items: [realParentHash, realHeader.hash], next: null },
    payload,
    payloadWithOutputs: realPayloadWithOutputs,
    payloadList: [payload],
    payloadWithOutputsList: [realPayloadWithOutputs],
    cut: realCut,
    // Release 3.2's answer, which leaves nodeServiceDate out (2.32 and the spec profile carry it).
    info: realInfo,
    branchBounds: { lower: [], upper: [realParentHash] },
    payloadBatch: [realHeader.payloadHash],
    eventStream: `event:BlockHeader\ndata:${JSON.stringify(data)}\nid:0123456789abcdef.1\n\n`,
    keyNotFound: { key: realParentHash, reason: 'key not found' },
    pollRequest: { requestKeys: [stored.reqKey] },
    pollResponse: { [String(stored.reqKey)]: commandResult },
    listenRequest: { listen: stored.reqKey },
    commandResult,
  }
}
