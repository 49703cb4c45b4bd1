import { type ChildProcess, spawn } from 'node:child_process'
import { closeSync, openSync, readFileSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { ClusterCheckError } from './errors.js'
import { waitFor } from './wait.js'

/** A child process of the check, its output going to a log file in the run's folder. */
export interface Proc {
  readonly name: string
  readonly pid: number
  readonly log: string
  readonly child: ChildProcess
  /** Resolves with the exit code or signal once the process has exited. */
  readonly exited: Promise<string>
  /** Whether the process has exited. */
  gone(): boolean
}

// Every process started and not yet seen to exit: ended on the way out, also on failure or Ctrl-C.
const running = new Set<Proc>()

/** Starts `command` with `args`, stdout and stderr appended to `log`. */
export function startProcess(name: string, command: string, args: readonly string[], log: string, env?: NodeJS.ProcessEnv): Proc {
  const fd = openSync(log, 'a')
  const child = spawn(command, [...args], { stdio: ['ignore', fd, fd], env: { ...process.env, ...env } })
  closeSync(fd)
  let done = false
  const exited = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => {
      done = true
      running.delete(proc)
      resolve(signal ?? `code ${code}`)
    })
    child.once('error', (error) => {
      done = true
      running.delete(proc)
      resolve(`error ${error.message}`)
    })
  })
  const proc: Proc = { name, pid: child.pid ?? -1, log, child, exited, gone: () => done }
  running.add(proc)
  return proc
}

/** Sends `signal` to the process by its id and waits for it to exit (SIGKILL after `grace` ms). */
async function stopProcess(proc: Proc, signal: NodeJS.Signals = 'SIGTERM', grace = 10_000): Promise<void> {
  if (proc.gone()) return
  proc.child.kill(signal)
  const ended = await Promise.race([proc.exited.then(() => true), sleep(grace).then(() => false)])
  if (!ended) {
    proc.child.kill('SIGKILL')
    await proc.exited
  }
}

/** Ends every process still running, gently first. */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((proc) => stopProcess(proc)))
}

/** The last `count` lines of a process's log, for a failure report. */
export function logTail(proc: Proc, count = 15): string {
  try {
    return readFileSync(proc.log, 'utf8').trimEnd().split('\n').slice(-count).join('\n')
  } catch {
    return '(no log)'
  }
}

/** Every process started by this run, running or not, for a failure report. */
export const started: Proc[] = []

/**
 * Starts a weft-server (`cli`) with `args` and resolves with its URL, read from its `listening` log
 * line (the documented way for scripts to learn the port of `--port 0`).
 */
export async function startNode(
  name: string,
  cli: string,
  args: readonly string[],
  log: string,
  timeout: number,
): Promise<{ proc: Proc; url: string }> {
  const proc = startProcess(name, process.execPath, [cli, ...args], log)
  started.push(proc)
  // null: the process exited before listening (reported at once, not after the timeout).
  const url = await waitFor(
    `${name} to log its "listening" line`,
    async () => (proc.gone() ? null : listeningUrl(readFileSync(log, 'utf8'))),
    timeout,
    100,
  )
  if (url === null) {
    throw new ClusterCheckError('CLUSTER_PROCESS_FAILED', `Expected ${name} to start, it exited (${await proc.exited}):\n${logTail(proc)}`)
  }
  return { proc, url }
}

// The URL of a log's `listening` line (each start of a node has a log of its own).
function listeningUrl(text: string): string | undefined {
  for (const line of text.split('\n')) {
    if (!line.includes('"msg":"listening"')) continue
    try {
      const entry = JSON.parse(line) as { url?: unknown }
      if (typeof entry.url === 'string') return entry.url
    } catch {
      // a line cut by the read: the next poll sees it whole
    }
  }
  return undefined
}
