#!/usr/bin/env node
import { runCli } from './run-cli.js'

await runCli(process.argv.slice(2), process.env, {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  onSignal: (signal, handler) => process.once(signal, handler),
  exit: (code) => process.exit(code),
})
