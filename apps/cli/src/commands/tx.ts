import type { CliIo, Flags, Values } from '@weft/command-line'
import { UsageError } from '@weft/command-line'
import { clientFrom, connectionFlags, connectionHelp, integer } from '../cli/arguments.js'
import { writeLine } from '../cli/io.js'

/** One line for the overview. */
export const summary = 'print every stored copy of a transaction, canonical or orphaned, with its depth'

/** The flags of `weft tx`. */
export const flags: Flags = { ...connectionFlags, chain: { type: 'string', short: 'c' } }

/** `weft tx <requestKey>`. */
export const positionals = true

/** The text of `weft tx --help`. */
export const help = `Usage: weft tx <requestKey> [--chain N] [options]

Prints one JSON line per stored copy of the transaction (a Weft node in the spec profile:
GET {base}/transaction/{requestKey}): requestKey, chain, height, blockHash, position, canonical
(on its chain's winning branch, or orphaned), depth (below the chain's head), command and result.
Canonical copies first, then newest first. Exits 1 with TX_NOT_FOUND 404 when none is stored.

  -c, --chain N        only copies on this chain

${connectionHelp}`

/** Prints each copy of the transaction. */
export async function run(values: Values, io: CliIo, positionals: readonly string[]): Promise<void> {
  const [requestKey, ...rest] = positionals
  if (requestKey === undefined || rest.length > 0) throw new UsageError('weft tx takes one request key')
  if (!/^[A-Za-z0-9_-]{43}$/.test(requestKey))
    throw new UsageError(`the request key must be 43 base64url characters, got ${JSON.stringify(requestKey)}`)
  const chain = values.chain === undefined ? undefined : integer('--chain', values.chain as string)
  const { copies } = await clientFrom(values, io).transaction(requestKey, chain)
  for (const copy of copies) await writeLine(io.stdout, copy)
}
