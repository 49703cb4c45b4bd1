import type { ParseArgsConfig } from 'node:util'
import type { CliIo } from './io.js'

/** The flags of a command, as `util.parseArgs` takes them. */
export type Flags = NonNullable<ParseArgsConfig['options']>

/** The parsed flags of a command. */
export type Values = Record<string, string | boolean | string[] | undefined>

/** What each module of `src/commands/` exports: one line for the overview, its help, its flags, its work. */
export interface Command {
  /** One line for `weft --help`. */
  readonly summary: string
  /** The text of `weft <command> --help`. */
  readonly help: string
  readonly flags: Flags
  /** Whether the command takes words after its name (`weft snapshot export`); none by default. */
  readonly positionals?: boolean
  /** Does the work; throws UsageError for bad arguments (exit 2), anything else is a failure (exit 1). */
  run(values: Values, io: CliIo, positionals: readonly string[]): Promise<void>
}
