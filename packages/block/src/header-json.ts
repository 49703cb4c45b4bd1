import { parseJsonExact } from '@weft/api'
import { decodeHash, decodeU256, encodeHash, encodeU256 } from '@weft/hash-text'
import type { BlockHeader, ChainwebBlockHeader, NetworkName, Profile } from '@weft/types'
import { InvalidEncodingError } from './errors.js'
import type { Header } from './header.js'
import { getNetwork } from './networks.js'

/** A header JSON object in either profile. */
export type AnyHeaderJson = BlockHeader | ChainwebBlockHeader

/** The header JSON object for a profile, keys in the canonical order. featureFlags above 2^53 lose precision here: use headerToJsonText for exact text. */
export function headerToJson(h: Header, profile: 'spec'): BlockHeader
export function headerToJson(h: Header, profile: 'chainweb'): ChainwebBlockHeader
export function headerToJson(h: Header, profile: Profile): BlockHeader | ChainwebBlockHeader
export function headerToJson(h: Header, profile: Profile): BlockHeader | ChainwebBlockHeader {
  const adjacents: Record<string, string> = {}
  for (const [chain, hash] of h.adjacents) adjacents[String(chain)] = encodeHash(hash)
  const head = {
    nonce: h.nonce.toString(),
    creationTime: h.creationTime,
    parent: encodeHash(h.parent),
    adjacents,
    target: encodeHash(encodeU256(h.target)),
    payloadHash: encodeHash(h.payloadHash),
    chainId: h.chainId,
    weight: encodeHash(encodeU256(h.weight)),
    height: h.height,
  }
  const tail = { epochStart: h.epochStart, featureFlags: Number(h.featureFlags), hash: encodeHash(h.hash) }
  return profile === 'chainweb' ? { ...head, chainwebVersion: h.version, ...tail } : { ...head, chainVersion: h.version, ...tail }
}

// The largest u32 is not an array index, so JSON.stringify would order its key after the others.
const firstNonIndexKey = 0xffffffff

// Whether the adjacents' keys would come out of JSON.stringify in the order they are in: strictly
// ascending array-index chain ids (as every decoded or validated header has them).
function adjacentsInKeyOrder(adjacents: Header['adjacents']): boolean {
  let previous = -1
  for (const [chain] of adjacents) {
    if (!Number.isInteger(chain) || chain <= previous || chain >= firstNonIndexKey) return false
    previous = chain
  }
  return true
}

/** The header JSON text for a profile, canonical key order, featureFlags written exactly even above 2^53. */
export function headerToJsonText(h: Header, profile: Profile): string {
  // Written directly: an object for JSON.stringify and the featureFlags fix-up cost more than all
  // the hashing of a block's header. The same text as the general path below, which odd
  // adjacents still take.
  if (adjacentsInKeyOrder(h.adjacents)) {
    let adjacents = ''
    for (const [chain, hash] of h.adjacents) adjacents += `${adjacents === '' ? '' : ','}"${chain}":"${encodeHash(hash)}"`
    return (
      `{"nonce":${JSON.stringify(h.nonce.toString())},"creationTime":${JSON.stringify(h.creationTime)},"parent":"${encodeHash(h.parent)}",` +
      `"adjacents":{${adjacents}},"target":"${encodeHash(encodeU256(h.target))}","payloadHash":"${encodeHash(h.payloadHash)}",` +
      `"chainId":${JSON.stringify(h.chainId)},"weight":"${encodeHash(encodeU256(h.weight))}","height":${JSON.stringify(h.height)},` +
      `"${profile === 'chainweb' ? 'chainwebVersion' : 'chainVersion'}":${JSON.stringify(h.version)},"epochStart":${JSON.stringify(h.epochStart)},` +
      `"featureFlags":${h.featureFlags.toString()},"hash":"${encodeHash(h.hash)}"}`
    )
  }
  const o = headerToJson(h, profile)
  // JSON.stringify keeps insertion order; only featureFlags needs exact digits.
  const text = JSON.stringify(o)
  const flags = `"featureFlags":${o.featureFlags},`
  return text.replace(flags, `"featureFlags":${h.featureFlags.toString()},`)
}

function integer(name: string, v: unknown, min: number): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min)
    throw new InvalidEncodingError(`Expected ${name} to be a safe integer >= ${min}, received ${JSON.stringify(v)}`)
  return v
}

function unsigned(name: string, v: unknown, bits: number): bigint {
  let n: bigint
  if (typeof v === 'bigint') n = v
  else if (typeof v === 'number' && Number.isInteger(v)) n = BigInt(v)
  else if (typeof v === 'string' && /^[0-9]{1,30}$/.test(v)) n = BigInt(v)
  else throw new InvalidEncodingError(`Expected ${name} to be an unsigned integer, received ${JSON.stringify(v)}`)
  if (n < 0n || n >= 1n << BigInt(bits)) throw new InvalidEncodingError(`Expected ${name} to fit in ${bits} bits, received ${n}`)
  return n
}

function hashField(name: string, v: unknown): Buffer {
  if (typeof v !== 'string') throw new InvalidEncodingError(`Expected ${name} to be a hash string, received ${JSON.stringify(v)}`)
  try {
    return decodeHash(v)
  } catch (cause) {
    throw new InvalidEncodingError(`Expected ${name} to be 43 base64url characters, received ${JSON.stringify(v)}`, { cause })
  }
}

/** A header from its JSON object in either profile (`chainVersion` or `chainwebVersion`); featureFlags may be a number, bigint or decimal string. */
export function headerFromJson(o: AnyHeaderJson): Header {
  const any = o as unknown as Record<string, unknown>
  if (typeof any !== 'object' || any === null) throw new InvalidEncodingError(`Expected a header object, received ${JSON.stringify(o)}`)
  const version = (any.chainVersion ?? any.chainwebVersion) as NetworkName
  try {
    getNetwork(version)
  } catch (cause) {
    throw new InvalidEncodingError(`Expected chainVersion or chainwebVersion to name a network, received ${JSON.stringify(version)}`, {
      cause,
    })
  }
  const adjacentsJson = any.adjacents
  if (typeof adjacentsJson !== 'object' || adjacentsJson === null || Array.isArray(adjacentsJson))
    throw new InvalidEncodingError(`Expected adjacents to be an object, received ${JSON.stringify(adjacentsJson)}`)
  const adjacents = Object.entries(adjacentsJson as Record<string, unknown>).map(([chain, hash]) => {
    if (!/^(0|[1-9][0-9]{0,9})$/.test(chain) || Number(chain) > 0xffffffff)
      throw new InvalidEncodingError(`Expected adjacent chain ids to be u32 decimal strings, received ${JSON.stringify(chain)}`)
    return [Number(chain), hashField(`adjacents.${chain}`, hash)] as const
  })
  adjacents.sort((a, b) => a[0] - b[0])
  return {
    nonce: unsigned('nonce', any.nonce, 64),
    creationTime: integer('creationTime', any.creationTime, Number.MIN_SAFE_INTEGER),
    parent: hashField('parent', any.parent),
    adjacents,
    target: decodeU256(hashField('target', any.target)),
    payloadHash: hashField('payloadHash', any.payloadHash),
    chainId: integer('chainId', any.chainId, 0),
    weight: decodeU256(hashField('weight', any.weight)),
    height: integer('height', any.height, 0),
    version,
    epochStart: integer('epochStart', any.epochStart, Number.MIN_SAFE_INTEGER),
    featureFlags: unsigned('featureFlags', any.featureFlags, 64),
    hash: hashField('hash', any.hash),
  }
}

/** A header from its JSON text in either profile, featureFlags exact even above 2^53. */
export function headerFromJsonText(text: string | Uint8Array): Header {
  return headerFromJson(parseJsonExact(text) as AnyHeaderJson)
}

const specKey = Buffer.from('"chainVersion":')
const chainwebKey = Buffer.from('"chainwebVersion":')

/** Spec-profile header JSON bytes to the given profile's bytes, by swapping the one `"chainVersion":` key; no parse. */
export function headerJsonForProfile(specJson: Buffer, profile: Profile): Buffer {
  if (profile === 'spec') return specJson
  const at = specJson.indexOf(specKey)
  if (at < 0) throw new InvalidEncodingError('Expected spec-profile header JSON with a "chainVersion" key')
  return Buffer.concat([specJson.subarray(0, at), chainwebKey, specJson.subarray(at + specKey.length)])
}
