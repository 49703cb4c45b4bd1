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
// Keep-alive sockets of fetch would hold the process open for a few seconds after the work is done.
process.exit()
