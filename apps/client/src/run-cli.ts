import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { errorCode } from '@weft/errors'
import type { Command } from './cli/command.js'
import { type CliIo, writeText } from './cli/io.js'
import * as blocks from './commands/blocks.js'
import * as branch from './commands/branch.js'
import * as follow from './commands/follow.js'
import * as health from './commands/health.js'
import * as info from './commands/info.js'
import * as mirror from './commands/mirror.js'
import * as snapshot from './commands/snapshot.js'
import { UsageError, WeftHttpError } from './errors.js'

export type { CliIo } from './cli/io.js'

const commands: Readonly<Record<string, Command>> = { info, health, blocks, branch, follow, mirror, snapshot }

/** The client's version: its package's own (`weft --version`). */
export const clientVersion: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string })
  .version

const mainUsage = `Usage: weft <command> [options]

The Weft command-line client: query a node, follow its chains, mirror it.
Output is NDJSON (one JSON value per line) on stdout; errors go to stderr.

Commands:
${Object.entries(commands)
  .map(([name, command]) => `  ${name.padEnd(8)} ${command.summary}`)
  .join('\n')}

Run \`weft <command> --help\` for the options of a command; \`weft --version\` prints the version.`

/** Runs the `weft` command line; resolves to the process exit code (0 ok, 1 failure, 2 bad usage). */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    await writeText(name === undefined ? io.stderr : io.stdout, `${mainUsage}\n`)
    return name === undefined ? 2 : 0
  }
  if (name === '--version') {
    await writeText(io.stdout, `${clientVersion}\n`)
    return 0
  }
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined
  if (!command) {
    await writeText(io.stderr, `weft: unknown command ${JSON.stringify(name)}\n\n${mainUsage}\n`)
    return 2
  }
  try {
    const { values, positionals } = parseArgs({
      args: [...rest],
      options: { ...command.flags, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: command.positionals === true,
    })
    if (values.help) {
      await writeText(io.stdout, `${command.help}\n`)
      return 0
    }
    await command.run(values, io, positionals)
    return 0
  } catch (error) {
    if (error instanceof UsageError || isParseArgsError(error)) {
      await writeText(io.stderr, `weft ${name}: ${(error as Error).message}\n\n${command.help}\n`)
      return 2
    }
    await writeText(io.stderr, `weft ${name}: ${failureText(error)}\n`)
    return 1
  }
}

// The message, then the code scripts can match: an HTTP failure names the server's cause and the status.
function failureText(error: unknown): string {
  const message = String((error as { message?: unknown } | null)?.message ?? error)
  const code = error instanceof WeftHttpError ? `${error.serverCode} ${error.status}` : errorCode(error)
  return code === undefined ? message : `${message} [${code}]`
}

function isParseArgsError(error: unknown): boolean {
  return errorCode(error)?.startsWith('ERR_PARSE_ARGS_') ?? false
}
