// `pnpm vectors:check`: compares the repository's copies of the shared vectors with ../shared/vectors.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { runIndexVectors } from './index-vectors.js'

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

function main(): number {
  const root = fileURLToPath(new URL('../../../', import.meta.url)).replace(/\/$/, '')
  const shared = process.env.WEFT_SHARED_VECTORS ?? `${root}/../shared/vectors`
  if (!existsSync(shared)) {
    process.stdout.write(`vectors: no shared vectors at ${shared}; nothing to compare\n`)
    return 0
  }
  const differences = compareVectors(root, shared)
  const checked = vectorCopies(root).length
  if (differences.length === 0) {
    process.stdout.write(`vectors: ${checked} copies equal ${shared}\n`)
    return 0
  }
  for (const { copy, problem } of differences) process.stdout.write(`vectors: ${copy}: ${problem}\n`)
  process.stdout.write(`vectors: ${differences.length} of ${checked} copies differ from ${shared}\n`)
  return 1
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1])
  process.exitCode = Math.max(
    main(),
    await runIndexVectors(process.env.WEFT_SHARED_VECTORS ?? fileURLToPath(new URL('../../../../shared/vectors', import.meta.url))),
  )
