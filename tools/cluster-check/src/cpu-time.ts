import { readdirSync, readFileSync } from 'node:fs'

// Linux's clock ticks per second in /proc/<pid>/stat (USER_HZ: 100 on every architecture Node runs on).
const ticksPerSecond = 100

// The ids of a process and its children (nginx's workers), from /proc.
function withChildren(pid: number): number[] {
  const children: number[] = []
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const text = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim()
      if (text !== '') children.push(...text.split(/\s+/).map(Number))
    }
  } catch {
    // gone: it has no children to count
  }
  return [pid, ...children]
}

// User and system seconds a process has used, 0 once it is gone.
function processSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Fields after the command (which may hold spaces), from its closing parenthesis: utime is the 12th, stime the 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond
  } catch {
    return 0
  }
}

/**
 * CPU seconds (user and system) the processes and their children have used so far: the cost of the
 * topology's work, whatever else the shared machine runs meanwhile.
 */
export function cpuSeconds(pids: readonly number[]): number {
  return pids.flatMap(withChildren).reduce((sum, pid) => sum + processSeconds(pid), 0)
}
