import { devnetNetworks } from '@weft/devnet'
import type { OptionName, OptionValue, serverOptions } from './config-options.js'

// `ServerConfig`, spelled out here: config.ts imports this module.
type ResolvedConfig = { [K in OptionName]: OptionValue<(typeof serverOptions)[K]> }

/**
 * One rule about settings that cannot go together: given the resolved configuration and the
 * settings that were given (not defaulted), it returns what is wrong and how to fix it, or undefined.
 */
export type ConfigConflict = (config: ResolvedConfig, given: ReadonlySet<OptionName>) => string | undefined

/** Every rule `resolveConfig` checks, in order; the first that fails refuses the configuration. */
export const configConflicts: ConfigConflict[] = [
  (config) =>
    config.upstream.length > 0 && config.devnet
      ? 'Expected either --upstream or --devnet, received both: a node follows upstreams or produces its own blocks, not both. ' +
        'Fix: drop --devnet (and WEFT_DEVNET), or drop --upstream (and WEFT_UPSTREAM)'
      : undefined,
  (config) =>
    config.devnet && !devnetNetworks.includes(config.network)
      ? `The devnet producer runs on the development networks (${devnetNetworks.join(', ')}), not on ${config.network}, a real network whose blocks it cannot mine. ` +
        `Fix: turn the producer off (--no-devnet), or serve a development network (--network development)`
      : undefined,
  (config, given) => {
    const producerOnly = (['blockDelay', 'forkRate'] as const).filter((name) => given.has(name))
    return !config.devnet && producerOnly.length > 0
      ? `${producerOnly.map((name) => (name === 'blockDelay' ? 'block delay' : 'fork rate')).join(' and ')} only ` +
          `${producerOnly.length > 1 ? 'apply' : 'applies'} to the devnet producer, which is off. ` +
          'Fix: drop them, or turn the producer on (--devnet)'
      : undefined
  },
  // Node counts the headers' time within the request's, and refuses a server whose headers may take longer.
  (config) =>
    config.headersTimeout > config.requestTimeout
      ? `The headers timeout (${config.headersTimeout} s) is longer than the request timeout (${config.requestTimeout} s), which covers the headers too. ` +
        'Fix: give --headers-timeout at most the --request-timeout'
      : undefined,
]

/** The first conflict among the rules, or undefined when the configuration holds together. */
export function findConflict(config: ResolvedConfig, given: ReadonlySet<OptionName>): string | undefined {
  for (const conflict of configConflicts) {
    const found = conflict(config, given)
    if (found !== undefined) return found
  }
  return undefined
}
