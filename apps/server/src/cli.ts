#!/usr/bin/env node
import { helpText, parseCommandLine } from './config.js'
import { startServer } from './server.js'

// The bin: parse flags and environment, start, print where we listen, stop cleanly on SIGINT/SIGTERM.
async function main(): Promise<void> {
  const commandLine = parseCommandLine(process.argv.slice(2), process.env)
  if (commandLine.help) {
    process.stdout.write(helpText())
    return
  }
  const running = await startServer(commandLine.options)
  const { config } = running
  process.stdout.write(`Weft node (${config.network}, ${config.profile} profile${config.devnet ? ', devnet producer on' : ''}) listening on ${running.url}\n`)
  let stopping = false
  const stop = (signal: string): void => {
    if (stopping) return
    stopping = true
    process.stdout.write(`${signal}: shutting down\n`)
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`shutdown failed: ${String(error)}\n`)
        process.exit(1)
      },
    )
  }
  process.once('SIGINT', () => stop('SIGINT'))
  process.once('SIGTERM', () => stop('SIGTERM'))
}

main().catch((error: unknown) => {
  process.stderr.write(`weft-server: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
})
