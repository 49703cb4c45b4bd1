import { type ClientOptions, createClient, type PageQuery, type WeftClient } from '@weft/client'
import { type CliIo, type Flags, UsageError, type Values } from '@weft/command-line'
import { isHashText } from '@weft/hash-text'
import { type NetworkName, networkNames, type Profile } from '@weft/types'

const defaultUrl = 'http://127.0.0.1:1848'
const networks: readonly string[] = networkNames

/** The flags that say which node to ask and how, shared by the query commands. */
export const connectionFlags: Flags = {
  url: { type: 'string', short: 'u' },
  network: { type: 'string' },
  profile: { type: 'string' },
  validate: { type: 'boolean' },
}

/** The help of `connectionFlags` (and of `--help`). */
export const connectionHelp = `Connection:
  -u, --url URL        the node's root URL (default $WEFT_URL or ${defaultUrl})
      --network NAME   ${networkNames.join(', ')} (default: the node's, from /info)
      --profile NAME   spec or chainweb (default: the node's, from its version header)
      --validate       check every response against the @weft/types schemas
  -h, --help           show this help`

/** The flags of the paged block queries. */
export const pageFlags: Flags = {
  chain: { type: 'string', short: 'c' },
  minheight: { type: 'string' },
  maxheight: { type: 'string' },
  limit: { type: 'string', short: 'n' },
  'page-size': { type: 'string' },
  next: { type: 'string' },
}

/** The help of `pageFlags`. */
export const pageHelp = `  -c, --chain N        the chain (required)
      --minheight N    lowest height
      --maxheight N    highest height
  -n, --limit N        print at most N blocks (default: all)
      --page-size N    blocks asked per request (default: the server's, 360)
      --next CURSOR    start at this cursor (inclusive:<hash> or exclusive:<hash>)`

/** The client of the node named by `--url`, `$WEFT_URL` or the default, with the connection flags applied. */
export function clientFrom(values: Values, io: CliIo): WeftClient {
  const options: ClientOptions = {
    url: httpUrl('--url', (values.url as string | undefined) ?? io.env?.WEFT_URL ?? defaultUrl),
    validate: values.validate === true,
    ...networkAndProfile(values),
  }
  return createClient(options)
}

/** `--network` and `--profile`, checked against the names the contract knows. */
export function networkAndProfile(values: Values): { network?: NetworkName; profile?: Profile } {
  const network = values.network as string | undefined
  const profile = values.profile as string | undefined
  if (network !== undefined && !networks.includes(network)) {
    throw new UsageError(`--network must be one of ${networkNames.join(', ')}, got ${JSON.stringify(network)}`)
  }
  if (profile !== undefined && profile !== 'spec' && profile !== 'chainweb') {
    throw new UsageError(`--profile must be spec or chainweb, got ${JSON.stringify(profile)}`)
  }
  return { ...(network ? { network: network as NetworkName } : {}), ...(profile ? { profile: profile as Profile } : {}) }
}

/** The chain, page query and print limit of `blocks` and `branch`. */
export function pageArguments(values: Values): { chain: number; query: PageQuery; limit: number } {
  if (values.chain === undefined) throw new UsageError('--chain is required')
  const chain = integer('--chain', values.chain as string)
  const limit = values.limit === undefined ? Infinity : integer('--limit', values.limit as string)
  const query: PageQuery = {}
  if (values.minheight !== undefined) query.minheight = integer('--minheight', values.minheight as string)
  if (values.maxheight !== undefined) query.maxheight = integer('--maxheight', values.maxheight as string)
  if (values.next !== undefined) query.next = cursor('--next', values.next as string)
  if (values['page-size'] !== undefined) query.limit = integer('--page-size', values['page-size'] as string, 1)
  // A small --limit needs no larger pages than itself.
  else if (limit < 360) query.limit = Math.max(1, limit)
  return { chain, query, limit }
}

/** A flag's decimal integer value, at least `minimum`. */
export function integer(flag: string, text: string, minimum = 0): number {
  const value = /^\d+$/.test(text) ? Number(text) : NaN
  if (!Number.isSafeInteger(value) || value < minimum)
    throw new UsageError(`${flag} must be an integer >= ${minimum}, got ${JSON.stringify(text)}`)
  return value
}

/** A flag's value as a paging cursor, `inclusive:<hash>` or `exclusive:<hash>`: a malformed one is a usage error. */
export function cursor(flag: string, text: string): string {
  const match = /^(inclusive|exclusive):(.*)$/.exec(text)
  if (!match || !isHashText(match[2] ?? ''))
    throw new UsageError(`${flag} must be inclusive:<hash> or exclusive:<hash> (43 base64url characters), got ${JSON.stringify(text)}`)
  return text
}

/** A flag's values as block hashes (43 base64url characters): a malformed one is a usage error. */
export function hashes(flag: string, texts: readonly string[]): string[] {
  for (const text of texts)
    if (!isHashText(text)) throw new UsageError(`${flag} must be a block hash (43 base64url characters), got ${JSON.stringify(text)}`)
  return [...texts]
}

/** A flag's value as an http or https URL: anything else is a usage error, not a failed request. */
export function httpUrl(flag: string, text: string): string {
  if (!URL.canParse(text) || !/^https?:$/.test(new URL(text).protocol)) {
    throw new UsageError(`${flag} must be an http or https URL, got ${JSON.stringify(text)}`)
  }
  return text
}
