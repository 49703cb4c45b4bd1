import { encodeU256, type Header, headerJsonForProfile, powHashHex, targetHex } from '@weft/block'
import { encodeHash } from '@weft/hash-text'
import type { ProfileRules } from '../profile/profiles.js'

/** A header an update event announces, with its stored spec-profile JSON and its transaction count. */
export interface AnnouncedHeader {
  readonly header: Header
  readonly headerJson: Buffer
  readonly txCount: number
}

/** The data of one event cut in two around where `/block/updates` puts the payload. */
export interface EventDataParts {
  /** `{"header":{...}` */
  readonly head: Buffer
  /** `,"powHash":...,"target":...,"txCount":n` */
  readonly tail: Buffer
}

const hashText = (hash: Buffer): string => `"${encodeHash(hash)}"`
const u256Text = (value: bigint): string => hashText(encodeU256(value))

/**
 * The header JSON as the real node writes it in update events: every key alphabetical, `adjacents`
 * keys sorted as text ("17" before "3"), featureFlags exact.
 */
export function alphabeticalHeaderJson(header: Header): string {
  const adjacents = header.adjacents
    .map(([chain, hash]) => [String(chain), hash] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([chain, hash]) => `"${chain}":${hashText(hash)}`)
    .join(',')
  return (
    `{"adjacents":{${adjacents}},"chainId":${header.chainId},"chainwebVersion":${JSON.stringify(header.version)},` +
    `"creationTime":${header.creationTime},"epochStart":${header.epochStart},"featureFlags":${header.featureFlags},` +
    `"hash":${hashText(header.hash)},"height":${header.height},"nonce":"${header.nonce}","parent":${hashText(header.parent)},` +
    `"payloadHash":${hashText(header.payloadHash)},"target":${u256Text(header.target)},"weight":${u256Text(header.weight)}}`
  )
}

// The payload's keys alphabetical; its values are strings and arrays of string pairs, so a parse loses nothing.
const payloadKeys = ['coinbase', 'minerData', 'outputsHash', 'payloadHash', 'transactions', 'transactionsHash'] as const

/** Payload-with-outputs JSON (canonical key order) with its keys alphabetical, as the real node writes it in events. */
export function alphabeticalPayloadJson(payloadJson: Buffer): Buffer {
  const payload = JSON.parse(payloadJson.toString('utf8')) as Record<string, unknown>
  return Buffer.from(`{${payloadKeys.map((key) => `"${key}":${JSON.stringify(payload[key])}`).join(',')}}`)
}

/** The two parts of an event's data in the profile's key order (see `headerEventData`, `blockEventData`). */
export function eventDataParts(rules: ProfileRules, announced: AnnouncedHeader): EventDataParts {
  const { header } = announced
  const headerJson =
    rules.eventKeys === 'alphabetical'
      ? Buffer.from(alphabeticalHeaderJson(header))
      : headerJsonForProfile(announced.headerJson, rules.name)
  return {
    head: Buffer.concat([Buffer.from('{"header":'), headerJson]),
    tail: Buffer.from(`,"powHash":"${powHashHex(header)}","target":"${targetHex(header.target)}","txCount":${announced.txCount}`),
  }
}

const close = Buffer.from('}')
const payloadKey = Buffer.from(',"payloadWithOutputs":')

/** The data of a `/header/updates` event, as pieces. */
export function headerEventData(parts: EventDataParts): Buffer[] {
  return [parts.head, parts.tail, close]
}

/** The data of a `/block/updates` event, as pieces: the payload last (spec), or in its alphabetical place (chainweb). */
export function blockEventData(rules: ProfileRules, parts: EventDataParts, payloadJson: Buffer): Buffer[] {
  if (rules.eventKeys === 'alphabetical') return [parts.head, payloadKey, alphabeticalPayloadJson(payloadJson), parts.tail, close]
  return [parts.head, parts.tail, payloadKey, payloadJson, close]
}
