import type { EventCopy, IndexedBlock, TransferCopy } from '@weft/store'

// The JSON of chainweb-data's answers (kadena-io/chainweb-api `lib/ChainwebData/*.hs`), written
// from index items: field names and order as aeson writes those records.

/**
 * aeson's `UTCTime`: ISO 8601 in UTC, seconds with as many fractional digits as needed (none for a
 * whole second), `Z`. Block times are microseconds.
 */
export function utcTime(micros: number): string {
  const seconds = Math.floor(micros / 1_000_000)
  const fraction = String(micros - seconds * 1_000_000)
    .padStart(6, '0')
    .replace(/0+$/, '')
  const whole = new Date(seconds * 1000).toISOString().slice(0, 19)
  return `${whole}${fraction === '' ? '' : `.${fraction}`}Z`
}

/**
 * Haskell's `show` of a `Scientific`, as chainweb-data writes a transfer's amount (`StringEncoded
 * Scientific`): plain from 0.1 below 10^7 (`1.0`, `0.5`, `1234567.0`), else digits and an exponent
 * (`7.41e-3`, `1.23456789e7`). `amount` is a canonical decimal text (no exponent, no redundant zeros).
 */
export function haskellScientific(amount: string): string {
  const negative = amount.startsWith('-')
  const [integer = '0', fraction = ''] = (negative ? amount.slice(1) : amount).split('.')
  const all = `${integer}${fraction}`.replace(/^0+/, '')
  if (all === '') return '0.0'
  const digits = all.replace(/0+$/, '')
  // value = 0.d1d2... × 10^exponent
  const exponent =
    integer.replace(/^0+/, '').length - (integer.replace(/^0+/, '') === '' ? fraction.length - fraction.replace(/^0+/, '').length : 0)
  const sign = negative ? '-' : ''
  if (exponent < 0 || exponent > 7) return `${sign}${digits[0]}.${digits.length > 1 ? digits.slice(1) : '0'}e${exponent - 1}`
  if (exponent === 0) return `${sign}0.${digits}`
  const whole = digits.slice(0, exponent).padEnd(exponent, '0')
  const rest = digits.slice(exponent)
  return `${sign}${whole}.${rest === '' ? '0' : rest}`
}

// The coinbase's events name the block's parent as their request key; chainweb-data writes `<coinbase>` (its `cb` row).
const requestKeyOf = (item: { readonly position: number; readonly requestKey: string }): string =>
  item.position < 0 ? '<coinbase>' : item.requestKey

const where = (block: IndexedBlock) => ({
  chain: block.chain,
  height: block.height,
  blockTime: utcTime(block.creationTime),
  blockHash: block.hash,
})

/** An `EventDetail`: name, params, moduleHash, chain, height, blockTime, blockHash, requestKey, idx. `params` keeps its exact text. */
export function eventDetail(event: EventCopy): string {
  const { chain, height, blockTime, blockHash } = where(event.block)
  const name = event.module === '' ? event.name : `${event.module}.${event.name}`
  return (
    `{"name":${JSON.stringify(name)},"params":${event.params},"moduleHash":${JSON.stringify(event.moduleHash ?? '')},` +
    `"chain":${chain},"height":${height},"blockTime":${JSON.stringify(blockTime)},"blockHash":${JSON.stringify(blockHash)},` +
    `"requestKey":${JSON.stringify(requestKeyOf(event))},"idx":${event.index}}`
  )
}

/** A `TransferDetail`; `crossChainAccount` and `crossChainId` name a cross-chain leg's other end (chainweb-data: burn legs). */
export function transferDetail(transfer: TransferCopy): Record<string, unknown> {
  const { chain, height, blockTime, blockHash } = where(transfer.block)
  return {
    blockHash,
    requestKey: requestKeyOf(transfer),
    chain,
    height,
    idx: transfer.index,
    token: transfer.token,
    fromAccount: transfer.sender,
    toAccount: transfer.receiver,
    amount: haskellScientific(transfer.amount),
    blockTime,
    crossChainAccount: transfer.crossChain?.account ?? null,
    crossChainId: transfer.crossChain === null ? null : Number(transfer.crossChain.chain),
  }
}
