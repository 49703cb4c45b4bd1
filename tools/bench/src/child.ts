import { type ChildProcess, fork } from 'node:child_process'
import { createInterface } from 'node:readline'
import { ChildProcessError } from './errors.js'
import { distScript } from './paths.js'

/** A message between the bench and one of its child processes: always tagged by `type`. */
export interface Message {
  readonly type: string
  readonly [key: string]: unknown
}

/** A child process of the bench, spoken to over IPC. */
export interface Child {
  readonly pid: number
  /** Resolves with the next message of that type; rejects if the child exits first. */
  next<T extends Message>(type: string): Promise<T>
  /** Sends a message and waits for the reply of type `reply`. */
  ask<T extends Message>(message: Message, reply: string): Promise<T>
  /** Every message, as it arrives (progress reports). */
  onMessage(listener: (message: Message) => void): void
  /** Resolves when the process has exited (with code 0, else rejects). */
  readonly exited: Promise<void>
  /** Ends the process by its id if it is still running. */
  kill(): void
}

/**
 * Starts `dist/<script>` of this package with an IPC channel; `env` adds to the bench's own
 * environment. With `stdoutLine`, each line the child writes to stdout goes to it, not to the bench's.
 */
export function startChild(
  script: string,
  args: readonly string[],
  execArgv: readonly string[] = [],
  env: Readonly<Record<string, string>> = {},
  stdoutLine?: (line: string) => void,
): Child {
  const child: ChildProcess = fork(distScript(script), [...args], {
    execArgv: [...execArgv],
    env: { ...process.env, ...env },
    stdio: ['ignore', stdoutLine === undefined ? 'inherit' : 'pipe', 'inherit', 'ipc'],
  })
  if (stdoutLine !== undefined && child.stdout !== null)
    createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY }).on('line', stdoutLine)
  const waiters: Array<{ type: string; resolve(m: Message): void; reject(e: Error): void }> = []
  const listeners: Array<(m: Message) => void> = []
  let failure: Error | undefined
  child.on('message', (raw) => {
    const message = raw as Message
    for (const listener of listeners) listener(message)
    const index = waiters.findIndex((w) => w.type === message.type)
    if (index >= 0) waiters.splice(index, 1)[0]?.resolve(message)
    if (message.type === 'error') {
      failure = new ChildProcessError(`${script} failed: ${String(message.message)}`)
      for (const waiter of waiters.splice(0)) waiter.reject(failure)
    }
  })
  const exited = new Promise<void>((resolve, reject) => {
    child.once('exit', (code, signal) => {
      const error = failure ?? new ChildProcessError(`${script} exited with ${signal ?? `code ${code}`} before answering`)
      for (const waiter of waiters.splice(0)) waiter.reject(error)
      if (code === 0) resolve()
      else reject(failure ?? new ChildProcessError(`${script} exited with ${signal ?? `code ${code}`}`))
    })
  })
  // Callers that only kill the child should not see an unhandled rejection.
  exited.catch(() => {})
  const next = <T extends Message>(type: string): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (failure !== undefined || child.exitCode !== null) reject(failure ?? new ChildProcessError(`${script} has exited`))
      else waiters.push({ type, resolve: resolve as (m: Message) => void, reject })
    })
  return {
    pid: child.pid ?? -1,
    next,
    ask: <T extends Message>(message: Message, reply: string): Promise<T> => {
      const answer = next<T>(reply)
      child.send(message)
      return answer
    },
    onMessage: (listener) => listeners.push(listener),
    exited,
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    },
  }
}

/** In a child: sends a message to the bench. */
export function send(message: Message): void {
  process.send?.(message)
}

/** In a child: calls `handler` for each message of the bench; a thrown error is reported and ends the child. */
export function serve(handler: (message: Message) => Promise<void> | void): void {
  process.on('message', (raw) => {
    Promise.resolve()
      .then(() => handler(raw as Message))
      .catch(fail)
  })
}

/** In a child: reports a failure to the bench and exits. */
export function fail(error: unknown): void {
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error)
  process.stderr.write(`${text}\n`)
  send({ type: 'error', message: error instanceof Error ? error.message : String(error) })
  process.exitCode = 1
  setTimeout(() => process.exit(1), 100).unref()
}
