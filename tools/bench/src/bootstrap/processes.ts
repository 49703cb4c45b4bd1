// The processes of `pnpm bench:bootstrap`: weft-server as its CLI runs it (a publisher, a node
// bootstrapping), read through its JSON log, and nginx running deploy/nginx-snapshots.conf.template.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { ChildProcessError } from '../errors.js'
import { repoRoot } from '../paths.js'

// weft-server's bin, beside the entry point of @weft/server.
const serverCli = fileURLToPath(new URL('./cli.js', import.meta.resolve('@weft/server')))

/** One line of a node's pino log: its message, its time (epoch ms) and the rest. */
export interface LogLine {
  readonly msg: string
  readonly time: number
  readonly [key: string]: unknown
}

/** A child process whose output goes to a log file. */
export interface Running {
  readonly child: ChildProcess
  readonly log: string
  /** Resolves with the exit code or signal. */
  readonly exited: Promise<string>
  gone(): boolean
}

function start(command: string, args: readonly string[], log: string): Running {
  const fd = openSync(log, 'a')
  const child = spawn(command, [...args], { stdio: ['ignore', fd, fd] })
  closeSync(fd)
  let done = false
  const exited = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => {
      done = true
      resolve(signal ?? `code ${code}`)
    })
  })
  return { child, log, exited, gone: () => done }
}

/** Starts `weft-server` with `args` (every address 127.0.0.1), logging JSON at info into `log`. */
export function startWeft(args: readonly string[], log: string): Running {
  return start(process.execPath, [serverCli, '--host', '127.0.0.1', '--port', '0', '--log-level', 'info', ...args], log)
}

/** The JSON lines of a log so far (a line cut by the read is left for the next). */
export function logLines(log: string): LogLine[] {
  const lines: LogLine[] = []
  for (const text of readFileSync(log, 'utf8').split('\n')) {
    if (!text.startsWith('{')) continue
    try {
      lines.push(JSON.parse(text) as LogLine)
    } catch {
      // cut by the read
    }
  }
  return lines
}

/** Waits (polling every 250 ms) for the first log line with message `msg`; the process's exit first is an error. */
export async function waitForLine(proc: Running, msg: string): Promise<LogLine> {
  for (;;) {
    const line = logLines(proc.log).find((entry) => entry.msg === msg)
    if (line !== undefined) return line
    if (proc.gone()) {
      const tail = readFileSync(proc.log, 'utf8').trimEnd().split('\n').slice(-10).join('\n')
      throw new ChildProcessError(`Expected the log line "${msg}" from ${proc.log}, the process exited (${await proc.exited}):\n${tail}`)
    }
    await sleep(250)
  }
}

/** Ends a process by its id (SIGTERM) and waits for it. */
export async function stop(proc: Running): Promise<void> {
  if (!proc.gone()) proc.child.kill('SIGTERM')
  await proc.exited
}

/** A port free on 127.0.0.1 at this moment (nginx cannot report one it picked itself). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

/**
 * Runs nginx in the foreground on deploy/nginx-snapshots.conf.template, publishing `folder` on a free
 * port of 127.0.0.1, with `dir` as its prefix; resolves with it and its URL once it answers.
 */
export async function publishFolder(folder: string, dir: string): Promise<{ nginx: Running; url: string }> {
  const template = readFileSync(join(repoRoot, 'deploy', 'nginx-snapshots.conf.template'), 'utf8')
  const port = await freePort()
  const config = join(dir, 'nginx.conf')
  const values = { WEFT_SNAPSHOTS_BIND: `127.0.0.1:${port}`, WEFT_SNAPSHOTS_DIR: folder }
  // As envsubst fills it, given exactly these names: any other `$` is nginx's own.
  writeFileSync(
    config,
    Object.entries(values).reduce((text, [name, value]) => text.replaceAll(`\${${name}}`, value), template),
  )
  const args = ['-p', `${dir}/`, '-c', config, '-e', join(dir, 'nginx-error.log'), '-g', `daemon off; pid ${join(dir, 'nginx.pid')};`]
  const check = spawnSync('nginx', ['-t', ...args], { encoding: 'utf8' })
  if (check.error !== undefined || check.status !== 0)
    throw new ChildProcessError(`Expected nginx to run ${config}: ${check.error?.message ?? check.stderr} (apt-get install -y nginx)`)
  const nginx = start('nginx', args, join(dir, 'nginx.log'))
  const url = `http://127.0.0.1:${port}`
  for (;;) {
    if (nginx.gone()) throw new ChildProcessError(`Expected nginx to serve ${folder}, it exited (${await nginx.exited})`)
    try {
      if ((await fetch(`${url}/manifest.json`)).ok) return { nginx, url }
    } catch {
      // not listening yet
    }
    await sleep(100)
  }
}
