// Fill-mode throughput: blocks mined per second (no store), and blocks mined and stored per
// second (fill into a fresh classic-level store, which validates every insert), with the store's
// transaction index (the default) and without it (`index: false`), rounds taking turns, and the
// ratio of the two; the catch-up of the index when the store filled without it is opened with it;
// and the time of a reorg 1,000 blocks deep (test/reorg.ts checks what it does,
// this how long it takes).
// Run after `pnpm build`: `pnpm bench`. Not a test: nothing here is asserted.
import { mkdtempSync, rmSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { genesisBlock, getNetwork, type Header } from '@weft/block'
import { BraidMiner, createRandom, type FillSummary, fill, type ReorgSummary, reorg } from '@weft/devnet'
import { type ChainStore, openStore } from '@weft/store'

const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 5000)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)

/** One timed round: what it returned, wall-clock and CPU seconds. */
interface Round<T> {
  readonly result: T
  readonly wall: number
  readonly cpu: number
}
const FORK_RATE = 0.03

// Wall-clock and CPU time of `fn`: on a shared machine other processes only ever make the wall
// clock slower, so the best round and the CPU time are the figures to compare.
async function timed<T>(fn: () => Promise<T>): Promise<Round<T>> {
  const cpu = process.cpuUsage()
  const start = performance.now()
  const result = await fn()
  const wall = (performance.now() - start) / 1000
  const used = process.cpuUsage(cpu)
  return { result, wall, cpu: (used.user + used.system) / 1e6 }
}

function mineOnly(seed: string): number {
  const network = getNetwork('development')
  const windows = new Map<number, Header[]>([...network.graphs[0]!.graph.keys()].map((c) => [c, [genesisBlock(network, c).header]]))
  const random = createRandom(seed)
  const miner = new BraidMiner(network, windows, { random, forkRate: FORK_RATE })
  let mined = 0
  while (mined < BLOCKS) mined += miner.mine(random.pick(miner.ready()), BLOCKS - mined >= 2).length
  return mined
}

// A fill into a fresh store, with its index or without; a store filled without it is then opened
// with it, and the catch-up of its index timed (what a store written before the index, or run with
// `--no-index`, costs when it is opened with the index again).
async function fillStore(seed: string, index: boolean): Promise<{ filled: Round<FillSummary>; catchUp: Round<unknown> | undefined }> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-devnet-bench-'))
  try {
    const path = join(dir, 'data')
    const store = await openStore({ path, network: 'development', index })
    let filled: Round<FillSummary>
    try {
      filled = await timed(() => fill(store, { blocks: BLOCKS, seed, forkRate: FORK_RATE }))
    } finally {
      await store.close()
    }
    if (index) return { filled, catchUp: undefined }
    let reopened: ChainStore | undefined
    const catchUp = await timed(async () => {
      reopened = await openStore({ path, network: 'development' })
      const status = await reopened.index.caughtUp()
      if (status.state !== 'complete') throw new Error(`Expected the index to catch up, but it ended ${status.state}`)
      return status
    })
    await reopened?.close()
    return { filled, catchUp }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const REORG_DEPTH = 1000

// A reorg REORG_DEPTH deep of the one chain of a filled test-singleton store, timed alone.
async function reorgStore(seed: string): Promise<Round<ReorgSummary>> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-devnet-bench-'))
  try {
    const store = await openStore({ path: join(dir, 'data'), network: 'test-singleton' })
    try {
      await fill(store, { blocks: REORG_DEPTH + 100, seed, forkRate: FORK_RATE })
      return await timed(() => reorg(store, { chains: [0], depth: REORG_DEPTH, seed }))
    } finally {
      await store.close()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US')
console.log(
  `@weft/devnet fill bench: ${BLOCKS} blocks per round, ${ROUNDS} rounds, development network (20 chains), fork rate ${FORK_RATE}`,
)
console.log(
  `node ${process.version}, ${cpus().length} cpus, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
)
mineOnly('warm-up')
const mining: Array<Round<number>> = []
for (let r = 0; r < ROUNDS; r++) mining.push(await timed(async () => mineOnly(`mine-${r}`)))
// The same seeds with and without the index, taking turns, so that the machine's load falls on both alike.
const filling: Array<Round<FillSummary>> = []
const unindexed: Array<Round<FillSummary>> = []
const catchUps: Array<Round<unknown>> = []
for (let r = 0; r < ROUNDS; r++) {
  filling.push((await fillStore(`fill-${r}`, true)).filled)
  const { filled, catchUp } = await fillStore(`fill-${r}`, false)
  unindexed.push(filled)
  if (catchUp !== undefined) catchUps.push(catchUp)
}
const report = (label: string, rounds: ReadonlyArray<Round<unknown>>): { best: number; perCpu: number } => {
  const best = Math.max(...rounds.map((x) => BLOCKS / x.wall))
  const perCpu = Math.max(...rounds.map((x) => BLOCKS / x.cpu))
  console.log(
    `${label}: best ${fmt(best)} blocks/s wall clock (rounds: ${rounds.map((x) => fmt(BLOCKS / x.wall)).join(', ')}); ${fmt(perCpu)} blocks per CPU second`,
  )
  return { best, perCpu }
}
report('mined, not stored  ', mining)
const indexed = report('mined and stored   ', filling)
const bare = report('stored, no index   ', unindexed)
console.log(
  `fill with the index against without: ${(indexed.best / bare.best).toFixed(3)} (best wall clock), ${(indexed.perCpu / bare.perCpu).toFixed(3)} (per CPU second)`,
)
report('index catch-up     ', catchUps)
const reorgs: Array<Round<ReorgSummary>> = []
for (let r = 0; r < ROUNDS; r++) reorgs.push(await reorgStore(`reorg-${r}`))
console.log(
  `reorg ${fmt(REORG_DEPTH)} deep: best ${Math.min(...reorgs.map((x) => x.wall)).toFixed(2)} s wall clock (rounds: ${reorgs
    .map((x) => x.wall.toFixed(2))
    .join(', ')}); ${Math.min(...reorgs.map((x) => x.cpu)).toFixed(2)} CPU seconds`,
)
console.log(
  `orphans per round: ${filling.map((x) => x.result.orphans).join(', ')}; load average after ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
)
