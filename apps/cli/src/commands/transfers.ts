import type { CliIo, Flags, Values } from '@weft/command-line'
import { UsageError } from '@weft/command-line'
import { clientFrom, connectionFlags, connectionHelp } from '../cli/arguments.js'
import { indexPageArguments, indexPageFlags, indexPageHelp, printItems } from '../cli/index-arguments.js'
import { writeLine } from '../cli/io.js'

/** One line for the overview. */
export const summary = "print an account's fungible transfers, sent or received, newest first"

/** The flags of `weft transfers`. */
export const flags: Flags = { ...connectionFlags, ...indexPageFlags, token: { type: 'string' } }

/** `weft transfers <account>`. */
export const positionals = true

/** The text of `weft transfers --help`. */
export const help = `Usage: weft transfers <account> [--token MODULE] [options]

Prints one JSON line per transfer the account sent or received (a Weft node in the spec profile:
GET {base}/transfer), newest first, following the cursors: requestKey, chain, height, blockHash,
position, index, token, sender, receiver, amount (exact decimal text), pactId, crossChain,
canonical, depth.

      --token MODULE   the fungible module (default coin)
${indexPageHelp}

${connectionHelp}`

/** Prints the account's transfers. */
export async function run(values: Values, io: CliIo, positionals: readonly string[]): Promise<void> {
  const [account, ...rest] = positionals
  if (account === undefined || account === '' || rest.length > 0) throw new UsageError('weft transfers takes one account')
  const { query, limit } = indexPageArguments(values)
  const client = clientFrom(values, io)
  await printItems(client.transfers(account, values.token as string | undefined, query), limit, (item) => writeLine(io.stdout, item))
}
