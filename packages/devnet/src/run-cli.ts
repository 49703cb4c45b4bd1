import { readFileSync } from 'node:fs'
import { type CliIo, type Program, runProgram } from '@weft/command-line'
import * as fill from './commands/fill.js'
import * as live from './commands/live.js'
import * as reorg from './commands/reorg.js'

/** The devnet's version: its package's own (`weft-devnet --version`). */
export const devnetVersion: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string })
  .version

/** The `weft-devnet` program: its commands, one module each in `commands/`. */
// One module per command: each exports its summary, flags, help and run.
const commands: Program['commands'] = { fill, live, reorg }

const devnetProgram: Program = {
  name: 'weft-devnet',
  version: devnetVersion,
  description:
    'Mines valid, braided, fork-rich blocks into a Weft store: at once (fill), in real time (live), or as a deep reorganisation (reorg).',
  commands,
}

/** Runs `weft-devnet` with `argv` (without node and the script); resolves to the exit code (0 ok, 1 failure, 2 bad usage). */
export function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  return runProgram(devnetProgram, argv, io)
}
