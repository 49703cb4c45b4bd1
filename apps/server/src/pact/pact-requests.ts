import { InvalidBodyError, InvalidQueryError } from '../errors.js'

// Servant answers a body its JSON instance refuses with 400 and aeson's message, `Error in $...: ...`;
// these messages keep that form (the words are Weft's).
const base64url = /^[A-Za-z0-9_-]*$/
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

function requestKey(value: unknown, where: string): string {
  if (typeof value !== 'string')
    throw new InvalidBodyError(`Error in ${where}: expected a request key (base64url text), received ${typeof value}`)
  if (!base64url.test(value) || value.length % 4 === 1)
    throw new InvalidBodyError(`Error in ${where}: expected a request key (base64url text), received ${JSON.stringify(value.slice(0, 64))}`)
  return value
}

/** The request keys of a `/poll` body, `{"requestKeys": [...]}` (at least one), each once, in request order. */
export function parsePollBody(body: unknown): string[] {
  if (!isObject(body)) throw new InvalidBodyError('Error in $: expected an object {"requestKeys": [...]}')
  const keys = body.requestKeys
  if (keys === undefined) throw new InvalidBodyError('Error in $: key "requestKeys" not found')
  if (!Array.isArray(keys)) throw new InvalidBodyError('Error in $.requestKeys: expected an array of request keys')
  if (keys.length === 0) throw new InvalidBodyError('Error in $.requestKeys: parsing NonEmpty failed, unexpected empty list')
  return [...new Set(keys.map((key, index) => requestKey(key, `$.requestKeys[${index}]`)))]
}

/** The request key of a `/listen` body, `{"listen": "<key>"}`. */
export function parseListenBody(body: unknown): string {
  if (!isObject(body)) throw new InvalidBodyError('Error in $: expected an object {"listen": "<request key>"}')
  if (body.listen === undefined) throw new InvalidBodyError('Error in $: key "listen" not found')
  return requestKey(body.listen, '$.listen')
}

const WORD64_MAX = 2n ** 64n - 1n

/**
 * `/poll`'s `confirmationDepth` (the node's `ConfirmationDepth`, a Word64): undefined when absent
 * (given twice, the first counts, as servant's `QueryParam`).
 */
export function parseConfirmationDepth(value: string | string[] | undefined): number | undefined {
  const text = Array.isArray(value) ? value[0] : value
  if (text === undefined) return undefined
  if (!/^[0-9]+$/.test(text) || BigInt(text) > WORD64_MAX)
    throw new InvalidQueryError(
      `Error parsing query parameter confirmationDepth failed: expected an integer from 0 to ${WORD64_MAX}, received ${JSON.stringify(text.slice(0, 64))}`,
    )
  // Beyond 2^53 every depth is deeper than any chain: the number stays above every height.
  return Number(text)
}

/** Whether a well-formed request key can name a transaction at all: 32 bytes in 43 characters of unpadded base64url. */
export function isFullRequestKey(key: string): boolean {
  return key.length === 43 && Buffer.from(key, 'base64url').toString('base64url') === key
}
