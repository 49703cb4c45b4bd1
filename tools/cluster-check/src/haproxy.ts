import { spawnSync } from 'node:child_process'
import { ClusterCheckError } from './errors.js'
import { getOk } from './http.js'
import { type Proc, started, startProcess } from './processes.js'
import { waitFor } from './wait.js'

/** How to get HAProxy where it is missing (Debian's package, as the issue asks). */
const installHint = 'Install it with: apt-get update && apt-get install -y haproxy (Debian/Ubuntu; HAProxy 2.2 or later)'

/** HAProxy's version line; throws CLUSTER_HAPROXY_MISSING, with the way to install it, when there is none. */
export function haproxyVersion(): string {
  const result = spawnSync('haproxy', ['-v'], { encoding: 'utf8' })
  if (result.error !== undefined || result.status !== 0) {
    throw new ClusterCheckError('CLUSTER_HAPROXY_MISSING', `Expected haproxy on the PATH, found none. ${installHint}`)
  }
  return result.stdout.split('\n')[0] ?? ''
}

/** Checks `config` with `haproxy -c` under `env`, then runs HAProxy in the foreground (`-db`) as a child. */
export function startHaproxy(config: string, env: NodeJS.ProcessEnv, log: string): Proc {
  const check = spawnSync('haproxy', ['-c', '-f', config], { encoding: 'utf8', env: { ...process.env, ...env } })
  if (check.status !== 0) {
    throw new ClusterCheckError(
      'CLUSTER_PROCESS_FAILED',
      `Expected ${config} to be valid, haproxy -c said:\n${check.stdout}${check.stderr}`,
    )
  }
  const proc = startProcess('haproxy', 'haproxy', ['-db', '-f', config], log, env)
  started.push(proc)
  return proc
}

/** One row of HAProxy's CSV statistics (a frontend, a backend or a server), by column name. */
export type StatRow = Readonly<Record<string, string>>

/** HAProxy's statistics, read from its stats page (`<stats>/;csv`). */
export async function readStats(statsUrl: string): Promise<StatRow[]> {
  const text = await getOk(`${statsUrl}/;csv`, 5_000)
  const [header = '', ...lines] = text.trim().split('\n')
  const columns = header.replace(/^# /, '').split(',')
  return lines.map((line) => {
    const cells = line.split(',')
    return Object.fromEntries(columns.map((column, i) => [column, cells[i] ?? '']))
  })
}

/** The row of `server` in `backend` (`BACKEND` for the backend's own totals). */
export function statRow(stats: readonly StatRow[], backend: string, server: string): StatRow {
  const row = stats.find((r) => r.pxname === backend && r.svname === server)
  if (row === undefined)
    throw new ClusterCheckError('CLUSTER_BAD_ANSWER', `Expected ${backend}/${server} in HAProxy's statistics, found none`)
  return row
}

/** Whether HAProxy sends traffic to the server: "UP", or "UP 1/2" (up, one failed check towards down). */
export function isUp(row: StatRow): boolean {
  return row.status === 'UP' || row.status?.startsWith('UP ') === true
}

/** Whether HAProxy has marked the server down: "DOWN", or "DOWN 1/2" (down, one good check towards up). */
export function isDown(row: StatRow): boolean {
  return row.status === 'DOWN' || row.status?.startsWith('DOWN ') === true
}

/** The HAProxy backends of deploy/haproxy.cfg, each listing every replica. */
export const backends = ['weft_replicas', 'weft_streams'] as const

/** Waits until `state` holds for each of `servers` in every backend. */
export async function waitForServers(
  statsUrl: string,
  servers: readonly string[],
  state: (row: StatRow) => boolean,
  what: string,
  timeout: number,
  interval = 100,
): Promise<void> {
  await waitFor(
    what,
    async () => {
      const stats = await readStats(statsUrl)
      return backends.every((backend) => servers.every((server) => state(statRow(stats, backend, server)))) ? true : undefined
    },
    timeout,
    interval,
  )
}
