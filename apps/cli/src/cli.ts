#!/usr/bin/env node
import { runCli } from './run-cli.js'

// SIGINT and SIGTERM end streaming commands cleanly (store closed, streams cancelled); a second one exits at once.
const controller = new AbortController()
const stop = () => {
  if (controller.signal.aborted) process.exit(130)
  controller.abort()
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
// A closed pipe (`weft follow | head -1`) is a normal way to stop.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0)
  throw error
})

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  signal: controller.signal,
  env: process.env,
})
// Keep-alive sockets of fetch would hold the process open for a few seconds after the work is done,
// so the process exits at once; but not before stdout and stderr have taken everything written:
// process.exit() drops writes still queued, and a reader that lagged lost the last block printed.
await Promise.all([written(process.stdout), written(process.stderr)])
process.exit()

// Resolves once what was written to `stream` before it has been handed to the operating system (or the stream failed).
function written(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed) resolve()
    else stream.write('', () => resolve())
  })
}
