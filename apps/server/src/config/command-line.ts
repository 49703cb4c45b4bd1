import { parseArgs } from 'node:util'
import { InvalidConfigError } from '../errors.js'
import type { ServerOptions } from './config.js'
import { defaultTextOf, type OptionName, type OptionSpec, optionEntries } from './config-options.js'

/** What the command line asks for: help, or a configuration. */
export type CommandLine = { help: true } | { help: false; options: ServerOptions }

/** A setting's value and where it came from: `--port`, `WEFT_PORT`, `file weft.json` or `default`. */
export interface SourcedValue {
  readonly value: unknown
  readonly source: string
}

/** Settings read from one place (the command line and environment, or a file), each with its source. */
export type SourcedSettings = { [K in OptionName]?: SourcedValue }

/** Everything `weft-server`'s arguments and environment ask for, before any file is read. */
export interface CommandLineRequest {
  /** `run` the node, `repair` its stopped store, or print `help`, the `version` or the effective configuration (`print-config`), then exit. */
  readonly action: 'run' | 'help' | 'version' | 'print-config' | 'repair'
  /** The configuration file named by `--config` or `WEFT_CONFIG`, with the one that named it. */
  readonly configFile: (SourcedValue & { value: string }) | undefined
  /** Settings given by a flag or, failing that, by an environment variable. */
  readonly settings: SourcedSettings
}

/** Variable naming the configuration file when `--config` is not given. */
export const CONFIG_ENV = 'WEFT_CONFIG'

// The settings that have a flag: the others are `startServer` options only.
const flagged = optionEntries.filter((entry): entry is [OptionName, OptionSpec<unknown> & { flag: string }] => entry[1].flag !== undefined)

const isSwitch = (spec: OptionSpec<unknown>): boolean => spec.kind.placeholder === undefined

/** The text `weft-server --help` prints: every flag with its variable, its meaning and its default. */
export function helpText(): string {
  const lines = [
    'Usage: weft-server [options]',
    '',
    'Weft: a read-only query node for a chainweb network.',
    '',
    'Options (each also an environment variable and a key of the --config file; a flag wins over its',
    'variable, a variable over the file):',
  ]
  const row = (name: string, env: string, help: string) => lines.push(`  ${name.padEnd(30)} ${env.padEnd(18)} ${help}`)
  for (const [, spec] of flagged) {
    const name = isSwitch(spec)
      ? `--${spec.flag} / --no-${spec.flag}`
      : `--${spec.flag} ${spec.kind.placeholder}${spec.kind.repeatable ? ' ...' : ''}`
    row(name, spec.env ?? '', `${spec.help} (default ${defaultTextOf(spec)})`)
  }
  row('--config <file>', CONFIG_ENV, 'JSON file of settings, keys as the flags (port, block-delay) or camelCase (blockDelay)')
  row('--print-config', '', 'print each effective setting and where it came from, then exit')
  row('--repair', '', 'repair the stopped store in --data after a damaged table (STORE_DAMAGED), report what was lost, then exit')
  row('--version', '', 'print the version, then exit')
  row('-h, --help', '', 'print this text')
  lines.push('', 'Logs are JSON lines (pino) on stdout; for a terminal: weft-server | npx pino-pretty')
  return `${lines.join('\n')}\n`
}

/** Reads flags, then environment variables for flags not given; ranges are checked by `resolveConfig`. */
export function readCommandLine(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): CommandLineRequest {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> = {
    help: { type: 'boolean', short: 'h' },
    version: { type: 'boolean' },
    'print-config': { type: 'boolean' },
    repair: { type: 'boolean' },
    config: { type: 'string' },
  }
  for (const [, spec] of flagged) {
    options[spec.flag] = { type: isSwitch(spec) ? 'boolean' : 'string', ...(spec.kind.repeatable ? { multiple: true } : {}) }
    if (isSwitch(spec)) options[`no-${spec.flag}`] = { type: 'boolean' }
  }
  let values: Record<string, string | boolean | Array<string | boolean> | undefined>
  try {
    // `pnpm start -- --flag` and `npm start -- --flag` hand the separator on: a leading `--` is not an argument.
    const args = argv[0] === '--' ? argv.slice(1) : [...argv]
    values = parseArgs({ args, options, strict: true, allowPositionals: false }).values
  } catch (error) {
    throw new InvalidConfigError(`${(error as Error).message}; see --help`, { cause: error })
  }
  const named = (['help', 'version', 'print-config', 'repair'] as const).find((name) => values[name] === true)
  const action = named ?? 'run'
  if (action === 'help' || action === 'version') return { action, configFile: undefined, settings: {} }
  const settings: SourcedSettings = {}
  for (const [name, spec] of flagged) {
    const flagValue = values[spec.flag]
    // A repeatable flag's texts are read as one list, as its variable's comma-separated text is.
    const given = values[`no-${spec.flag}`] === true ? false : Array.isArray(flagValue) ? flagValue.join(',') : flagValue
    const [text, source] = given === undefined ? [spec.env === undefined ? undefined : env[spec.env], spec.env] : [given, `--${spec.flag}`]
    // An empty flag value or variable counts as unset.
    if (typeof text === 'boolean') settings[name] = { value: text, source: source ?? '' }
    else if (text !== undefined && text !== '') settings[name] = { value: fromText(spec, text, source ?? ''), source: source ?? '' }
  }
  const file = typeof values.config === 'string' && values.config !== '' ? values.config : env[CONFIG_ENV]
  const configFile =
    file === undefined || file === '' ? undefined : { value: file, source: values.config === file ? '--config' : CONFIG_ENV }
  return { action, configFile, settings }
}

/** The command line's settings as `startServer` options (flags over variables), or a request for help. */
export function parseCommandLine(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): CommandLine {
  const request = readCommandLine(argv, env)
  if (request.action === 'help') return { help: true }
  return { help: false, options: optionsOf(request.settings) }
}

/** The values of sourced settings, as `startServer` options. */
export function optionsOf(settings: SourcedSettings): ServerOptions {
  return Object.fromEntries(Object.entries(settings).map(([name, sourced]) => [name, sourced.value])) as ServerOptions
}

/** Reads a setting's text (a flag's, a variable's or a file's) as its kind says, naming `source` when it cannot. */
export function fromText(spec: OptionSpec<unknown>, text: string, source: string): unknown {
  const value = spec.kind.fromText(text)
  if (value === undefined) throw new InvalidConfigError(`Expected ${source} to be ${spec.kind.expected}, received ${JSON.stringify(text)}`)
  return value
}
