// `pnpm vectors:check`: compares the repository's copies of the shared vectors with ../shared/vectors,
// then replays the real block data of ../shared/vectors/real by Weft's rules (src/real/).
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { runIndexVectors } from './index-vectors.js'
import { replay } from './real/replay.js'
import { readRealData } from './real/sources.js'

/** One copy of a shared vector kept in the repository. */
export interface VectorCopy {
  /** File name in the shared folder. */
  readonly name: string
  /** Path of the copy, relative to the repository root. */
  readonly copy: string
}

/** What a comparison found for one file. */
export interface VectorDifference {
  readonly copy: string
  readonly problem: 'differs' | 'missing in the repository' | 'not in the shared vectors'
}

/** Every copy the repository keeps: all of fixtures/vectors, and @weft/block's genesis data. */
export function vectorCopies(root: string): VectorCopy[] {
  const fixtures = readdirSync(`${root}/fixtures/vectors`).filter((name) => name.endsWith('.json'))
  const genesis = readdirSync(`${root}/packages/block/src/data`).filter((name) => name.startsWith('genesis-'))
  return [
    ...fixtures.map((name) => ({ name, copy: `fixtures/vectors/${name}` })),
    ...genesis.map((name) => ({ name, copy: `packages/block/src/data/${name}` })),
  ]
}

/** Compares the copies under `root` with the shared folder, byte for byte; shared files with no copy count too. */
export function compareVectors(root: string, shared: string): VectorDifference[] {
  const copies = vectorCopies(root)
  const differences: VectorDifference[] = []
  for (const { name, copy } of copies) {
    if (!existsSync(`${shared}/${name}`)) differences.push({ copy, problem: 'not in the shared vectors' })
    else if (!readFileSync(`${root}/${copy}`).equals(readFileSync(`${shared}/${name}`))) differences.push({ copy, problem: 'differs' })
  }
  const copied = new Set(copies.filter(({ copy }) => copy.startsWith('fixtures/')).map(({ name }) => name))
  for (const name of readdirSync(shared).filter((file) => file.endsWith('.json'))) {
    if (!copied.has(name)) differences.push({ copy: `fixtures/vectors/${name}`, problem: 'missing in the repository' })
  }
  return differences
}

/** The replay of a real-data folder, as `pnpm vectors:check` prints it: counts and problems. */
export function replayFolder(real: string): { lines: string[]; failed: boolean } {
  const data = readRealData(real)
  if (data.files.length === 0) return { lines: [`real: no real block data in ${real}; skipped the replay`], failed: false }
  const { counts, problems } = replay(data)
  const lines = [`real: replayed ${data.files.length} files of ${real}`]
  for (const [what, n] of counts) lines.push(`real: ${n.toLocaleString('en-US')} ${what}`)
  for (const text of problems) lines.push(`real: FAILED ${text}`)
  lines.push(problems.length === 0 ? 'real: every header, payload and cut keeps the rules' : `real: ${problems.length} problems`)
  return { lines, failed: problems.length > 0 }
}

function main(): number {
  const root = fileURLToPath(new URL('../../../', import.meta.url)).replace(/\/$/, '')
  const shared = process.env.WEFT_SHARED_VECTORS ?? `${root}/../shared/vectors`
  if (!existsSync(shared)) {
    process.stdout.write(`vectors: no shared vectors at ${shared}; skipped the comparison and the replay of real data\n`)
    return 0
  }
  const differences = compareVectors(root, shared)
  const checked = vectorCopies(root).length
  for (const { copy, problem } of differences) process.stdout.write(`vectors: ${copy}: ${problem}\n`)
  process.stdout.write(
    differences.length === 0
      ? `vectors: ${checked} copies equal ${shared}\n`
      : `vectors: ${differences.length} of ${checked} copies differ from ${shared}\n`,
  )
  const real = `${shared}/real`
  const replayed = existsSync(real)
    ? replayFolder(real)
    : { lines: [`real: no real block data at ${real}; skipped the replay`], failed: false }
  for (const line of replayed.lines) process.stdout.write(`${line}\n`)
  return differences.length > 0 || replayed.failed ? 1 : 0
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1])
  process.exitCode = Math.max(
    main(),
    await runIndexVectors(process.env.WEFT_SHARED_VECTORS ?? fileURLToPath(new URL('../../../../shared/vectors', import.meta.url))),
  )
