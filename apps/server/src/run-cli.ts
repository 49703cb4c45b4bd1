import { type Logger, pino } from 'pino'
import { helpText, optionsOf, readCommandLine, type SourcedSettings } from './config/command-line.js'
import { resolveConfig } from './config/config.js'
import { readConfigFile } from './config/config-file.js'
import { printConfigText, sourcesOf } from './config/print-config.js'
import { InvalidConfigError } from './errors.js'
import { runRepair } from './operator/repair-command.js'
import { nodeVersion, type RunningServer, startServer } from './server.js'

/** What the command needs from its process: output, signals and exit (injected so tests run it in-process). */
export interface ProcessIo {
  stdout(text: string): void
  stderr(text: string): void
  onSignal(signal: 'SIGINT' | 'SIGTERM', handler: () => void): void
  exit(code: number): void
}

/** Milliseconds after a first SIGINT or SIGTERM during which another is taken as the same one. */
export const REPEAT_GRACE_MS = 2000

/** Exit code of a command line or configuration the node cannot use (bad flag, value, file or combination). */
export const USAGE_EXIT = 2

// Every line the command writes while it runs is a pino JSON line on stdout: lifecycle, configuration,
// requests and failures alike (`weft-server | npx pino-pretty` for a terminal).
function commandLog(level: string, io: ProcessIo): Logger {
  return pino({ level, base: { name: 'weft-server' } }, { write: (line: string) => io.stdout(line) })
}

/**
 * `weft-server`: reads flags, environment and `--config` file (a flag wins over its variable, a variable
 * over the file), starts the node, logs the configuration and where it listens, and shuts down cleanly
 * on SIGINT or SIGTERM (a second signal, 2 s or more after the first, exits 130 at once). `--help`, `--version` and `--print-config` print and exit 0; `--repair` repairs the store and exits 0; a configuration it
 * cannot use exits 2, any other failure to start 1. Resolves with the running node, or undefined when
 * it did not start (the exit code already given to `io.exit`).
 */
export async function runCli(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  io: ProcessIo,
): Promise<RunningServer | undefined> {
  let log = commandLog('info', io)
  let running: RunningServer
  try {
    const request = readCommandLine(argv, env)
    if (request.action === 'help' || request.action === 'version') {
      io.stdout(request.action === 'help' ? helpText() : `${nodeVersion}\n`)
      io.exit(0)
      return undefined
    }
    const fromFile = request.configFile === undefined ? {} : readConfigFile(request.configFile.value)
    const settings: SourcedSettings = { ...fromFile, ...request.settings }
    const options = optionsOf(settings)
    const config = resolveConfig(options)
    if (request.action === 'print-config') {
      io.stdout(printConfigText(config, settings))
      io.exit(0)
      return undefined
    }
    log = commandLog(config.logLevel, io)
    if (request.action === 'repair') {
      await runRepair(config.data, config.network, log)
      io.exit(0)
      return undefined
    }
    log.info({ version: nodeVersion, configFile: request.configFile?.value, config, sources: sourcesOf(settings) }, 'configuration')
    running = await startServer(options, log)
  } catch (error) {
    const usage = error instanceof InvalidConfigError
    const { code } = error as { code?: unknown }
    // A usage error is the operator's to fix from its message: its stack would only hide it.
    log.fatal(usage ? { code } : { err: error, code }, `cannot start: ${error instanceof Error ? error.message : String(error)}`)
    io.exit(usage ? USAGE_EXIT : 1)
    return undefined
  }
  const { config } = running
  log.info(
    { url: running.url, network: config.network, profile: config.profile, devnet: config.devnet, upstream: config.upstream },
    'listening',
  )
  let stoppingSince: number | undefined
  const stop = (signal: string): void => {
    if (stoppingSince !== undefined) {
      // A repeat soon after the first is the same Ctrl-C, forwarded by a package manager; a later one insists.
      if (Date.now() - stoppingSince < REPEAT_GRACE_MS) return
      log.warn({ signal }, 'stopping now, without waiting for the shutdown')
      io.exit(130)
      return
    }
    stoppingSince = Date.now()
    log.info({ signal }, 'shutting down')
    running.close().then(
      () => {
        log.info('stopped')
        io.exit(0)
      },
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed')
        io.exit(1)
      },
    )
  }
  io.onSignal('SIGINT', () => stop('SIGINT'))
  io.onSignal('SIGTERM', () => stop('SIGTERM'))
  return running
}
