import type { CliIo, Flags, Values } from '@weft/command-line'
import { clientFrom, connectionFlags, connectionHelp } from '../cli/arguments.js'
import { writeLine } from '../cli/io.js'

/** One line for the overview. */
export const summary = 'check that the node is up (GET /health-check)'

/** The flags of `weft health`. */
export const flags: Flags = connectionFlags

/** The text of `weft health --help`. */
export const help = `Usage: weft health [options]

Prints {"healthy":true,"message":"Health check OK."} and exits 0 when the node answers 200;
otherwise prints the error on stderr and exits 1.

${connectionHelp}`

/** Prints `{"healthy":true,"message":...}` when the node answers 200; its failure otherwise. */
export async function run(values: Values, io: CliIo): Promise<void> {
  const message = (await clientFrom(values, io).health()).trim()
  await writeLine(io.stdout, { healthy: true, message })
}
