import type { CliIo, Flags, Values } from '@weft/command-line'
import { UsageError } from '@weft/command-line'
import { clientFrom, connectionFlags, connectionHelp, hashes, pageArguments, pageFlags, pageHelp } from '../cli/arguments.js'
import { writeLine } from '../cli/io.js'

/** One line for the overview. */
export const summary = 'print the ancestors of upper bounds that are not ancestors of lower bounds (POST branch)'

/** The flags of `weft branch`. */
export const flags: Flags = {
  ...connectionFlags,
  ...pageFlags,
  upper: { type: 'string', multiple: true },
  lower: { type: 'string', multiple: true },
}

/** The text of `weft branch --help`. */
export const help = `Usage: weft branch --chain N --upper HASH [--upper HASH...] [--lower HASH...] [options]

Prints every block of the branch as one JSON line, descending by height, following the cursors.

      --upper HASH     an upper bound (repeatable, at least one)
      --lower HASH     a lower bound (repeatable)
${pageHelp}

${connectionHelp}`

/** Prints each block of the branch, up to `--limit`. */
export async function run(values: Values, io: CliIo): Promise<void> {
  const client = clientFrom(values, io)
  const { chain, query, limit } = pageArguments(values)
  const upper = hashes('--upper', (values.upper as string[] | undefined) ?? [])
  if (upper.length === 0) throw new UsageError('--upper is required')
  const lower = hashes('--lower', (values.lower as string[] | undefined) ?? [])
  let printed = 0
  if (limit === 0) return
  for await (const block of client.branch(chain, { upper, lower }, query)) {
    await writeLine(io.stdout, block)
    if (++printed === limit) return
  }
}
