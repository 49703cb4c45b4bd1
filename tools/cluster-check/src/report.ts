/** What a check found: passed or not, in one line, with its figures for the summary. */
export interface Outcome {
  readonly pass: boolean
  readonly detail: string
  readonly figures: Readonly<Record<string, unknown>>
}

/** A check's outcome under its letter and title. */
export interface CheckResult extends Outcome {
  readonly id: string
  readonly title: string
  readonly ms: number
}

/** Runs one check and prints its PASS or FAIL line; an error thrown is a failure whose detail is its message. */
export async function runCheck(id: string, title: string, check: () => Promise<Outcome>): Promise<CheckResult> {
  const start = performance.now()
  let outcome: Outcome
  try {
    outcome = await check()
  } catch (error) {
    outcome = { pass: false, detail: error instanceof Error ? error.message : String(error), figures: {} }
  }
  const result = { id, title, ...outcome, ms: Math.round(performance.now() - start) }
  process.stdout.write(`${result.pass ? 'PASS' : 'FAIL'} (${id}) ${title}: ${result.detail}\n`)
  return result
}

/** A progress line, on stderr so that stdout holds only the results and the summary. */
export function progress(line: string): void {
  process.stderr.write(`cluster:check: ${line}\n`)
}
