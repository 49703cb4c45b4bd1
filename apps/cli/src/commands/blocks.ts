import type { CliIo, Flags, Values } from '@weft/command-line'
import { clientFrom, connectionFlags, connectionHelp, pageArguments, pageFlags, pageHelp } from '../cli/arguments.js'
import { writeLine } from '../cli/io.js'

/** One line for the overview. */
export const summary = 'print the blocks of a chain, ascending, orphans included (GET block)'

/** The flags of `weft blocks`. */
export const flags: Flags = { ...connectionFlags, ...pageFlags }

/** The text of `weft blocks --help`. */
export const help = `Usage: weft blocks --chain N [options]

Prints every matching full block as one JSON line, ascending by height, following the cursors.

${pageHelp}

${connectionHelp}`

/** Prints each matching block, up to `--limit`. */
export async function run(values: Values, io: CliIo): Promise<void> {
  const client = clientFrom(values, io)
  const { chain, query, limit } = pageArguments(values)
  let printed = 0
  if (limit === 0) return
  for await (const block of client.blocks(chain, query)) {
    await writeLine(io.stdout, block)
    if (++printed === limit) return
  }
}
