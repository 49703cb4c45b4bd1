import { helpText, parseCommandLine } from './command-line.js'
import { type RunningServer, startServer } from './server.js'

/** What the command needs from its process: output, signals and exit (injected so tests run it in-process). */
export interface CliIo {
  stdout(text: string): void
  stderr(text: string): void
  onSignal(signal: 'SIGINT' | 'SIGTERM', handler: () => void): void
  exit(code: number): void
}

/**
 * `weft-server`: parses flags and environment, starts the node, prints where it listens as the
 * first line, and shuts down cleanly on SIGINT or SIGTERM. Resolves with the running node (or
 * undefined after --help or an error, with the exit code already given to `io.exit`).
 */
export async function runCli(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  io: CliIo,
): Promise<RunningServer | undefined> {
  let running: RunningServer
  try {
    const commandLine = parseCommandLine(argv, env)
    if (commandLine.help) {
      io.stdout(helpText())
      io.exit(0)
      return undefined
    }
    running = await startServer(commandLine.options)
  } catch (error) {
    io.stderr(`weft-server: ${error instanceof Error ? error.message : String(error)}\n`)
    io.exit(1)
    return undefined
  }
  const { config } = running
  io.stdout(
    `Weft node (${config.network}, ${config.profile} profile${config.devnet ? ', devnet producer on' : ''}${upstreams(config.upstream)}) listening on ${running.url}\n`,
  )
  let stopping = false
  const stop = (signal: string): void => {
    if (stopping) return
    stopping = true
    io.stdout(`${signal}: shutting down\n`)
    running.close().then(
      () => io.exit(0),
      (error: unknown) => {
        io.stderr(`weft-server: shutdown failed: ${error instanceof Error ? error.message : String(error)}\n`)
        io.exit(1)
      },
    )
  }
  io.onSignal('SIGINT', () => stop('SIGINT'))
  io.onSignal('SIGTERM', () => stop('SIGTERM'))
  return running
}

function upstreams(urls: readonly string[]): string {
  return urls.length === 0 ? '' : `, following ${urls.join(', ')}`
}
