import { readFileSync } from 'node:fs'
import { WeftHttpError } from '@weft/client'
import { type CliIo, type Program, runProgram } from '@weft/command-line'
import * as blocks from './commands/blocks.js'
import * as branch from './commands/branch.js'
import * as events from './commands/events.js'
import * as follow from './commands/follow.js'
import * as health from './commands/health.js'
import * as info from './commands/info.js'
import * as mirror from './commands/mirror.js'
import * as snapshot from './commands/snapshot.js'
import * as transfers from './commands/transfers.js'
import * as tx from './commands/tx.js'

/** The CLI's version: its package's own (`weft --version`). */
export const cliVersion: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string })
  .version

// One module per command: each exports its summary, flags, help and run.
const commands: Program['commands'] = { info, health, blocks, branch, follow, tx, events, transfers, mirror, snapshot }

/** The `weft` program. */
const weft: Program = {
  name: 'weft',
  version: cliVersion,
  description: `The Weft command-line client: query a node, follow its chains, mirror it.
Output is NDJSON (one JSON value per line) on stdout; errors go to stderr.`,
  commands,
  // An HTTP failure names the server's cause and the status, which scripts match.
  failureCode: (error) => (error instanceof WeftHttpError ? `${error.serverCode} ${error.status}` : undefined),
}

/** Runs the `weft` command line; resolves to the process exit code (0 ok, 1 failure, 2 bad usage). */
export function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  return runProgram(weft, argv, io)
}
