import { parseArgs } from 'node:util'
import type { ServerOptions } from './config.js'
import { defaultTextOf, type OptionName, type OptionSpec, optionEntries } from './config-options.js'
import { InvalidConfigError } from './errors.js'

/** What the command line asks for: help, or a configuration. */
export type CommandLine = { help: true } | { help: false; options: ServerOptions }

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
    'Options (each also an environment variable; a flag wins over its variable):',
  ]
  for (const [, spec] of flagged) {
    const name = isSwitch(spec)
      ? `--${spec.flag} / --no-${spec.flag}`
      : `--${spec.flag} ${spec.kind.placeholder}${spec.kind.repeatable ? ' ...' : ''}`
    lines.push(`  ${name.padEnd(30)} ${(spec.env ?? '').padEnd(18)} ${spec.help} (default ${defaultTextOf(spec)})`)
  }
  lines.push(`  ${'--help'.padEnd(30)} ${''.padEnd(18)} print this text`)
  return `${lines.join('\n')}\n`
}

/** Reads flags, then environment variables for flags not given; ranges are checked by `resolveConfig`. */
export function parseCommandLine(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): CommandLine {
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> = { help: { type: 'boolean' } }
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
  if (values.help === true) return { help: true }
  const result: Record<string, unknown> = {}
  for (const [name, spec] of flagged) {
    const flagValue = values[spec.flag]
    // A repeatable flag's texts are read as one list, as its variable's comma-separated text is.
    const given = values[`no-${spec.flag}`] === true ? false : Array.isArray(flagValue) ? flagValue.join(',') : flagValue
    const [text, source] = given === undefined ? [spec.env === undefined ? undefined : env[spec.env], spec.env] : [given, `--${spec.flag}`]
    // An empty flag value or variable counts as unset.
    if (typeof text === 'boolean') result[name] = text
    else if (text !== undefined && text !== '') result[name] = fromText(spec, text, source ?? '')
  }
  return { help: false, options: result as ServerOptions }
}

function fromText(spec: OptionSpec<unknown>, text: string, source: string): unknown {
  const value = spec.kind.fromText(text)
  if (value === undefined) throw new InvalidConfigError(`Expected ${source} to be ${spec.kind.expected}, received ${JSON.stringify(text)}`)
  return value
}
