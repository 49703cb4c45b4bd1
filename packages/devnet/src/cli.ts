#!/usr/bin/env node
import { runCli } from './run-cli.js'

// Ctrl-C and SIGTERM end `live` cleanly: the block being stored is finished and the store closed.
const controller = new AbortController()
process.once('SIGINT', () => controller.abort())
process.once('SIGTERM', () => controller.abort())
process.exitCode = await runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, signal: controller.signal })
