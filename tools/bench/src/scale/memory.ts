import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { repoRoot } from '../paths.js'

/** A process's resident memory, split as Linux counts it: anonymous (its own) and file-backed (mapped files). */
export interface Resident {
  readonly rss: number
  /** The process's own memory: heaps, buffers, caches. */
  readonly anon: number
  /** Pages of mapped files (LevelDB maps its table files): page cache the kernel may reclaim. */
  readonly file: number
}

/** The resident memory of process `pid` (default: this one), from /proc; all zero where /proc is missing. */
export function residentMemory(pid: number | 'self' = 'self'): Resident {
  let status: string
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8')
  } catch {
    return { rss: 0, anon: 0, file: 0 }
  }
  const kib = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024
  return { rss: kib('VmRSS'), anon: kib('RssAnon'), file: kib('RssFile') + kib('RssShmem') }
}

/**
 * The malloc settings the image sets (`ENV MALLOC_...` lines of deploy/Dockerfile; the systemd unit
 * sets the same): a node run as the deploy files run it.
 */
export function deployedMallocEnvironment(): Record<string, string> {
  const dockerfile = readFileSync(join(repoRoot, 'deploy', 'Dockerfile'), 'utf8')
  return Object.fromEntries([...dockerfile.matchAll(/^ENV (MALLOC_\w+)=(\S+)$/gm)].map((match) => [match[1]!, match[2]!]))
}
