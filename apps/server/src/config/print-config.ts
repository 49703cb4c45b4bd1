import type { SourcedSettings } from './command-line.js'
import type { ServerConfig } from './config.js'
import { defaultTextOf, optionEntries } from './config-options.js'

/** Where each setting of a configuration came from: a flag, a variable, a file, or `default`. */
export function sourcesOf(settings: SourcedSettings): Record<string, string> {
  return Object.fromEntries(optionEntries.map(([name]) => [name, settings[name]?.source ?? 'default']))
}

/**
 * The text of `--print-config`: one line per setting, in the table's order: its name (the camelCase
 * key of a configuration file), its effective value as JSON, and where it came from.
 */
export function printConfigText(config: ServerConfig, settings: SourcedSettings): string {
  const rows = optionEntries.map(([name, spec]) => {
    const value = config[name]
    const shown = value === undefined ? `(none: ${defaultTextOf(spec)})` : JSON.stringify(value)
    return [name, shown, settings[name]?.source ?? 'default'] as const
  })
  const nameWidth = Math.max(...rows.map(([name]) => name.length))
  const valueWidth = Math.max(...rows.map(([, shown]) => shown.length))
  return rows.map(([name, shown, source]) => `${name.padEnd(nameWidth)}  ${shown.padEnd(valueWidth)}  ${source}\n`).join('')
}
