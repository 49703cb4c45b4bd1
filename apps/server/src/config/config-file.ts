import { readFileSync } from 'node:fs'
import { InvalidConfigError } from '../errors.js'
import { fromText, type SourcedSettings } from './command-line.js'
import { type OptionName, type OptionSpec, optionEntries } from './config-options.js'

// A file names a setting by its flag (`block-delay`) or its camelCase name (`blockDelay`); only
// settings with a flag can be set there, as on the command line.
const byKey = new Map<string, [OptionName, OptionSpec<unknown>]>()
for (const [name, spec] of optionEntries) {
  if (spec.flag === undefined) continue
  byKey.set(name, [name, spec])
  byKey.set(spec.flag, [name, spec])
}

/**
 * Reads a JSON configuration file: one object whose keys are flags without dashes or camelCase
 * names. A value is JSON of the setting's type (`"port": 1848`, `"devnet": false`) or text read as
 * the flag's would be (`"port": "1848"`). Unknown keys, a setting given twice and unreadable files
 * are refused with the file's name.
 */
export function readConfigFile(path: string): SourcedSettings {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new InvalidConfigError(`Expected a readable configuration file at ${path}: ${(error as Error).message}`, { cause: error })
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw new InvalidConfigError(`Expected the configuration file ${path} to be JSON: ${(error as Error).message}`, { cause: error })
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new InvalidConfigError(`Expected the configuration file ${path} to hold a JSON object, received ${JSON.stringify(parsed)}`)
  const source = `file ${path}`
  const settings: SourcedSettings = {}
  const keys = new Map<OptionName, string>()
  for (const [key, value] of Object.entries(parsed)) {
    const entry = byKey.get(key)
    if (entry === undefined)
      throw new InvalidConfigError(
        `Expected keys of ${path} to be settings (${[...byKey.keys()].join(', ')}), received ${JSON.stringify(key)}`,
      )
    const [name, spec] = entry
    const earlier = keys.get(name)
    if (earlier !== undefined) throw new InvalidConfigError(`Expected ${path} to give ${name} once, received both ${earlier} and ${key}`)
    keys.set(name, key)
    // Text is read as a flag's text would be (a switch's "off", a number's "0.5"); other JSON is checked as is.
    const read = typeof value === 'string' ? fromText(spec, value, `${key} in ${path}`) : value
    if (!spec.kind.accepts(read))
      throw new InvalidConfigError(`Expected ${key} in ${path} to be ${spec.kind.expected}, received ${JSON.stringify(value)}`)
    settings[name] = { value: read, source }
  }
  return settings
}
