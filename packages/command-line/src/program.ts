import { type ParseArgsConfig, parseArgs } from 'node:util'
import { errorCode } from '@weft/errors'
import { UsageError } from './errors.js'
import { type CliIo, writeText } from './io.js'

/** The flags of a command, as `util.parseArgs` takes them. */
export type Flags = NonNullable<ParseArgsConfig['options']>

/** The parsed flags of a command. */
export type Values = Record<string, string | boolean | string[] | undefined>

/** What each module of a program's `commands/` exports: one line for the overview, its help, its flags, its work. */
export interface Command {
  /** One line for `<program> --help`. */
  readonly summary: string
  /** The text of `<program> <command> --help`. */
  readonly help: string
  readonly flags: Flags
  /** Whether the command takes words after its name (`weft snapshot export`); none by default. */
  readonly positionals?: boolean
  /** Does the work; throws `UsageError` for bad arguments (exit 2), anything else is a failure (exit 1). */
  run(values: Values, io: CliIo, positionals: readonly string[]): Promise<void>
}

/** A program of commands: its name (the bin's), version, what it is, and its commands by name. */
export interface Program {
  readonly name: string
  readonly version: string
  /** What the program does, a paragraph under the usage line of `--help`. */
  readonly description: string
  readonly commands: Readonly<Record<string, Command>>
  /** The code shown after a failure's message (`[CODE]`); default: the error's `code`. */
  readonly failureCode?: (error: unknown) => string | undefined
}

/** The text of `<program> --help`: its usage, what it is, one line per command. */
export function programHelp(program: Program): string {
  const width = Math.max(8, ...Object.keys(program.commands).map((name) => name.length))
  const lines = Object.entries(program.commands).map(([name, command]) => `  ${name.padEnd(width)} ${command.summary}`)
  return `Usage: ${program.name} <command> [options]

${program.description}

Commands:
${lines.join('\n')}

Run \`${program.name} <command> --help\` for the options of a command; \`${program.name} --version\` prints the version.`
}

/**
 * Runs a program's command line: `<program> <command> [flags]`, `--help` (or `-h`, `help`), a
 * command's `--help`, `--version`. Resolves to the exit code: 0 done, 1 a failure (its message and
 * `[CODE]` on stderr), 2 bad usage (the reason, then the usage of the command or of the program).
 */
export async function runProgram(program: Program, argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv
  try {
    if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
      await writeText(name === undefined ? io.stderr : io.stdout, `${programHelp(program)}\n`)
      return name === undefined ? 2 : 0
    }
    if (name === '--version') {
      await writeText(io.stdout, `${program.version}\n`)
      return 0
    }
    if (!Object.hasOwn(program.commands, name)) {
      await writeText(io.stderr, `${program.name}: unknown command ${JSON.stringify(name)}\n\n${programHelp(program)}\n`)
      return 2
    }
  } catch (error) {
    await writeText(io.stderr, `${program.name}: ${failureText(error, program)}\n`)
    return 1
  }
  return runCommand(program, name, program.commands[name] as Command, rest, io)
}

async function runCommand(program: Program, name: string, command: Command, args: readonly string[], io: CliIo): Promise<number> {
  try {
    const { values, positionals } = parseCommandLine(command, args)
    if (values.help) {
      await writeText(io.stdout, `${command.help}\n`)
      return 0
    }
    await command.run(values, io, positionals)
    return 0
  } catch (error) {
    if (error instanceof UsageError) {
      await writeText(io.stderr, `${program.name} ${name}: ${error.message}\n\n${command.help}\n`)
      return 2
    }
    await writeText(io.stderr, `${program.name} ${name}: ${failureText(error, program)}\n`)
    return 1
  }
}

// parseArgs's own errors (an unknown flag, a missing value) are usage errors.
function parseCommandLine(command: Command, args: readonly string[]): { values: Values; positionals: string[] } {
  try {
    return parseArgs({
      args: [...args],
      options: { ...command.flags, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: command.positionals === true,
    }) as { values: Values; positionals: string[] }
  } catch (error) {
    if (errorCode(error)?.startsWith('ERR_PARSE_ARGS_')) throw new UsageError((error as Error).message, { cause: error })
    throw error
  }
}

// The message, then the code scripts can match.
function failureText(error: unknown, program: Program): string {
  const message = String((error as { message?: unknown } | null)?.message ?? error)
  const code = program.failureCode?.(error) ?? errorCode(error)
  return code === undefined ? message : `${message} [${code}]`
}
