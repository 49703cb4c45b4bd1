// Reads the output of `turbo run test` (tap's TAP 14, each line prefixed by turbo with its task) into
// what a person wants after a long run: the totals, every failed assertion by file and test, and the
// slowest files.

/** One failed assertion, or a test file tap ended (`timeout!`). */
export interface TapFailure {
  /** The package, as turbo names its task: `@weft/server`. */
  readonly pkg: string
  /** The test file, then each subtest down to the assertion that failed. */
  readonly path: readonly string[]
}

/** One test file and how long it ran. */
export interface TapFileTime {
  readonly pkg: string
  readonly file: string
  readonly ms: number
}

/** What one run of the suite gave. */
export interface TapReport {
  readonly total: number
  readonly pass: number
  readonly fail: number
  /** Packages whose tap run printed its closing count. */
  readonly packages: number
  readonly failures: readonly TapFailure[]
  readonly files: readonly TapFileTime[]
  /** Tasks turbo saw fail (`@weft/store#test`), with or without a failed assertion: a package below its coverage bar fails with none. */
  readonly failedTasks: readonly string[]
}

const taskLine = /^(@[\w.-]+\/[\w.-]+|[\w.-]+):test: ?(.*)$/
const subtestLine = /^# Subtest: (.*)$/
const resultLine = /^(not )?ok \d+ - (.*?)(?: # (?:time=([\d.]+)ms|SKIP.*|TODO.*))?$/
const countLine = /^# \{ total: (\d+), pass: (\d+)(?:, fail: (\d+))?/
// In the YAML under tap's `timeout!`: the file (or `TAP`, inside a file) whose time ran out.
const expiredLine = /^expired: (.*)$/
// Turbo's own line for a task whose command failed: `ERROR` when it stops there, `WARNING` with --continue.
const failedTaskLine = /^(\S+#\S+):\s+(?:WARNING\s+command finished with error|ERROR\s+command\b)/

/** Reads turbo's output of test tasks; lines of other tasks are passed over. */
export function readTapOutput(text: string): TapReport {
  let total = 0
  let pass = 0
  let fail = 0
  let packages = 0
  const failures: Array<{ pkg: string; path: string[] }> = []
  const files: TapFileTime[] = []
  // Per package: the subtest names open at each depth (four spaces a depth).
  const open = new Map<string, string[]>()
  const failedTasks = new Set<string>()
  for (const raw of text.split('\n')) {
    const failedTask = failedTaskLine.exec(raw)
    if (failedTask !== null) failedTasks.add(failedTask[1] as string)
    const task = taskLine.exec(raw)
    if (task === null) continue
    const pkg = task[1] as string
    const body = (task[2] as string).trimEnd()
    const indent = body.length - body.trimStart().length
    const depth = Math.floor(indent / 4)
    const line = body.trimStart()
    const stack = open.get(pkg) ?? []
    open.set(pkg, stack)
    const subtest = subtestLine.exec(line)
    if (subtest !== null) {
      stack.length = depth
      stack[depth] = subtest[1] as string
      continue
    }
    const count = depth === 0 ? countLine.exec(line) : null
    if (count !== null) {
      packages += 1
      total += Number(count[1])
      pass += Number(count[2])
      fail += Number(count[3] ?? 0)
      continue
    }
    const expired = expiredLine.exec(line)
    const last = failures.at(-1)
    if (expired !== null && last?.pkg === pkg && last.path.length === 1 && last.path[0] === 'timeout!') {
      last.path.unshift(expired[1] as string)
      continue
    }
    const result = resultLine.exec(line)
    if (result === null) continue
    const [, not, name, ms] = result as unknown as [string, string | undefined, string, string | undefined]
    if (depth === 0 && ms !== undefined) files.push({ pkg, file: name, ms: Number(ms) })
    // A subtest's own closing line repeats the name opened at this depth: its assertions were listed.
    if (not === undefined || stack[depth] === name) continue
    failures.push({ pkg, path: [...stack.slice(0, depth), name] })
  }
  files.sort((a, b) => b.ms - a.ms)
  return { total, pass, fail, packages, failures, files, failedTasks: [...failedTasks] }
}

/** The report as lines of text: counts, failures, the `slowest` slowest files. */
export function formatTapReport(report: TapReport, slowest = 5): string[] {
  const lines = [`${report.pass} passed, ${report.fail} failed, ${report.total} in all (${report.packages} packages)`]
  if (report.failures.length > 0) lines.push('failed:')
  for (const failure of report.failures) lines.push(`  ${failure.pkg} ${failure.path.join(' > ')}`)
  if (report.failedTasks.length > 0) lines.push('failed tasks (a coverage bar missed or a crash shows in the log, not above):')
  for (const task of report.failedTasks) lines.push(`  ${task}`)
  if (report.files.length > 0) lines.push('slowest files:')
  for (const file of report.files.slice(0, slowest)) lines.push(`  ${(file.ms / 1000).toFixed(1)} s ${file.pkg} ${file.file}`)
  return lines
}
