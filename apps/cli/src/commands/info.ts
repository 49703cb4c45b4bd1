import type { CliIo, Flags, Values } from '@weft/command-line'
import { clientFrom, connectionFlags, connectionHelp } from '../cli/arguments.js'
import { writeLine } from '../cli/io.js'

/** One line for the overview. */
export const summary = 'print the node information (GET /info)'

/** The flags of `weft info`. */
export const flags: Flags = connectionFlags

/** The text of `weft info --help`. */
export const help = `Usage: weft info [options]

Prints the node's /info object as one JSON line.

${connectionHelp}`

/** Prints the node's `/info` object. */
export async function run(values: Values, io: CliIo): Promise<void> {
  await writeLine(io.stdout, await clientFrom(values, io).info())
}
