#!/usr/bin/env node
import { runCli } from './run-cli.js'

await runCli(process.argv.slice(2), process.env, {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  // `on`, not `once`: under `pnpm start` one Ctrl-C arrives twice (from the terminal, and forwarded by
  // pnpm); a signal the process no longer handled would kill it mid-shutdown. runCli decides on repeats.
  onSignal: (signal, handler) => process.on(signal, handler),
  exit: (code) => process.exit(code),
})
