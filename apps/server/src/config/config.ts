import { InvalidConfigError } from '../errors.js'
import { findConflict } from './config-conflicts.js'
import {
  type ComputedOption,
  labelOf,
  type OptionName,
  type OptionSpec,
  type OptionValue,
  optionEntries,
  type serverOptions,
} from './config-options.js'

/** Everything a node needs to start, one field per entry of the options table (config-options.ts). */
export type ServerConfig = { [K in OptionName]: OptionValue<(typeof serverOptions)[K]> }

/** Options accepted by `startServer`: any subset of the configuration; undefined means the default. */
export type ServerOptions = { [K in OptionName]?: ServerConfig[K] | undefined }

type FixedDefaults = {
  [K in OptionName as (typeof serverOptions)[K] extends ComputedOption<unknown> ? never : K]: ServerConfig[K]
}

/** The defaults of every setting whose default is fixed (devnet's is computed from the network). */
export const defaultConfig: Readonly<FixedDefaults> = Object.fromEntries(
  optionEntries.flatMap(([name, spec]) => ('default' in spec ? [[name, spec.default]] : [])),
) as FixedDefaults

function show(value: unknown): string {
  return typeof value === 'string' || Array.isArray(value) ? JSON.stringify(value) : String(value)
}

/**
 * Fills the defaults and checks every value, in table order (a computed default sees the settings above it),
 * then the rules between settings (config-conflicts.ts).
 */
export function resolveConfig(options: ServerOptions): ServerConfig {
  const resolved: Record<string, unknown> = {}
  for (const [name, spec] of optionEntries) {
    const given = options[name]
    const value = given !== undefined ? given : defaultOf(spec, resolved)
    resolved[name] = value
    // A setting whose default is absent (`blockDelay`, `serviceDate`) may stay absent.
    if (value === undefined && 'default' in spec && spec.default === undefined) continue
    if (!spec.kind.accepts(value))
      throw new InvalidConfigError(`Expected ${labelOf(name, spec)} to be ${spec.kind.expected}, received ${show(value)}`)
  }
  // Settings valid one by one may still contradict each other (the producer on a real network).
  const given = new Set(optionEntries.map(([name]) => name).filter((name) => options[name] !== undefined))
  const conflict = findConflict(resolved as ServerConfig, given)
  if (conflict !== undefined) throw new InvalidConfigError(conflict)
  return resolved as ServerConfig
}

function defaultOf(spec: OptionSpec<unknown>, resolved: Readonly<Record<string, unknown>>): unknown {
  return 'defaultFrom' in spec ? spec.defaultFrom(resolved) : spec.default
}
