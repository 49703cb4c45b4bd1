import type { EventCopy, IndexedBlock, TransactionCopy, TransactionLookup, TransferCopy } from '@weft/store'

// The spec profile's bodies of the transaction index (routes/index-routes.ts): each copy names its
// block, whether that block is on its chain's winning branch, and its depth below the chain's head.
// Texts that may hold amounts (commands, results, event parameters) are written as stored, never
// parsed: every digit is kept.

const text = (value: unknown): string => JSON.stringify(value)

// The place of a copy: the same first members as the filtered streams' data (streams/index-streams.ts).
const place = (requestKey: string, block: IndexedBlock, position: number): string =>
  `"requestKey":${text(requestKey)},"chain":${block.chain},"height":${block.height},"blockHash":${text(block.hash)},"position":${position}`

const standing = (block: IndexedBlock): string => `"canonical":${block.canonical},"depth":${block.depth}`

/** One copy of a transaction: its place, standing, the signed command and its result as the payload holds them. */
export function transactionCopy(copy: TransactionCopy): string {
  return `{${place(copy.requestKey, copy.block, copy.position)},${standing(copy.block)},"command":${copy.command},"result":${copy.result}}`
}

/** `{requestKey, complete, copies}`: every stored copy, canonical first, then newest first. */
export function transactionBody(requestKey: string, lookup: TransactionLookup): Buffer {
  return Buffer.from(
    `{"requestKey":${text(requestKey)},"complete":${lookup.complete},"copies":[${lookup.copies.map(transactionCopy).join(',')}]}`,
  )
}

/** One event: its place, index, qualified module and name, exact parameters, module hash, standing. */
export function eventItem(event: EventCopy): Buffer {
  return Buffer.from(
    `{${place(event.requestKey, event.block, event.position)},"index":${event.index},"module":${text(event.module)},` +
      `"name":${text(event.name)},"params":${event.params},"moduleHash":${text(event.moduleHash)},${standing(event.block)}}`,
  )
}

/** One transfer: its place, index, token, sides, exact amount, the pact that links cross-chain legs, the other end of such a leg, standing. */
export function transferItem(transfer: TransferCopy): Buffer {
  return Buffer.from(
    `{${place(transfer.requestKey, transfer.block, transfer.position)},"index":${transfer.index},"token":${text(transfer.token)},` +
      `"sender":${text(transfer.sender)},"receiver":${text(transfer.receiver)},"amount":${text(transfer.amount)},` +
      `"pactId":${text(transfer.pactId)},"crossChain":${text(transfer.crossChain)},${standing(transfer.block)}}`,
  )
}
