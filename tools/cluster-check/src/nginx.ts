import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ClusterCheckError } from './errors.js'
import { type Proc, started, startProcess } from './processes.js'

/** How to get nginx where it is missing (Debian's package, as the issue asks). */
const installHint = 'Install it with: apt-get update && apt-get install -y nginx (Debian/Ubuntu; nginx 1.19.5 or later)'

/** nginx's version line; throws CLUSTER_NGINX_MISSING, with the way to install it, when there is none. */
export function nginxVersion(): string {
  const result = spawnSync('nginx', ['-v'], { encoding: 'utf8' })
  if (result.error !== undefined || result.status !== 0) {
    throw new ClusterCheckError('CLUSTER_NGINX_MISSING', `Expected nginx on the PATH, found none. ${installHint}`)
  }
  // nginx prints its version on stderr.
  return (result.stderr || result.stdout).trim()
}

/**
 * The template with `${NAME}` of each name of `values` replaced by its value, as envsubst does when
 * given exactly those names; any other `$` is nginx's own.
 */
function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return Object.entries(values).reduce((text, [name, value]) => text.replaceAll(`\${${name}}`, value), template)
}

/**
 * Fills the template into `<dir>/nginx.conf`, checks it with `nginx -t`, then runs nginx in the
 * foreground (`daemon off`) with `dir` as its prefix (temporary files, pid, error log), as the process `name`.
 */
export function startNginx(template: string, values: Readonly<Record<string, string>>, dir: string, name = 'nginx'): Proc {
  const config = join(dir, 'nginx.conf')
  writeFileSync(config, fillTemplate(readFileSync(template, 'utf8'), values))
  const args = ['-p', `${dir}/`, '-c', config, '-e', join(dir, 'nginx-error.log'), '-g', `daemon off; pid ${join(dir, 'nginx.pid')};`]
  const check = spawnSync('nginx', ['-t', ...args], { encoding: 'utf8' })
  if (check.status !== 0) {
    throw new ClusterCheckError(
      'CLUSTER_PROCESS_FAILED',
      `Expected ${config} (from ${template}) to be valid, nginx -t said:\n${check.stderr}`,
    )
  }
  const proc = startProcess(name, 'nginx', args, join(dir, 'nginx.log'))
  started.push(proc)
  return proc
}
