import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The repository root (tools/bench/dist/ is three levels below it). */
export const repoRoot: string = fileURLToPath(new URL('../../../', import.meta.url))

/** Where filled stores are kept between runs (gitignored). */
export const benchDataDir: string = process.env.WEFT_BENCH_DATA ?? join(repoRoot, 'bench-data')

/** Where the results of the last run are written. */
export const resultsPath: string = join(repoRoot, 'bench-results.json')

/** A compiled entry point of this package, for child processes. */
export function distScript(name: string): string {
  return fileURLToPath(new URL(`./${name}`, import.meta.url))
}
