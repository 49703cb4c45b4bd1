// Benchmarks of @weft/store (`pnpm bench`): validated inserts per second, and range reads as a ratio
// to a raw classic-level iteration over the same keys, measured in the same run on the same data
// (best of 15 alternating rounds each).
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Header } from '@weft/block'
import { ClassicLevel } from 'classic-level'
import { type ChainStore, openStore, type RangeItem } from '../src/index.js'
import { blockKeyHigh, blockKeyLow, type ChainDb, payloadKey } from '../src/keys.js'
import { mineRound } from './mine-round.js'

// Its blocks are test-singleton's (one chain, where a line is a valid braid); the repository's own
// bench (tools/bench) measures inserts of braided development blocks.

const singleInserts = Number(process.env.WEFT_BENCH_SINGLE ?? 2_000)
const manyInserts = Number(process.env.WEFT_BENCH_MANY ?? 10_000)
const rangeBlocks = Number(process.env.WEFT_BENCH_RANGE ?? 20_000)
const rounds = 15
const pageSize = 360
const network = 'test-singleton'
const dir = mkdtempSync(join(tmpdir(), 'weft-store-bench-'))

/** Seconds of wall-clock time of each insert phase. */
interface InsertFigures {
  singleSeconds: number
  manySeconds: number
}

/** The measured reads: each returns how many blocks it read. */
type Run = () => Promise<number>

const seconds = (start: number): number => (performance.now() - start) / 1000
const rate = (n: number, s: number): string => `${Math.round(n / s).toLocaleString('en-US')}/s`

async function measureInserts(): Promise<InsertFigures> {
  const store = await openStore({ path: dir, network })
  const tips = new Map(store.cut())

  // Mining is done before the clock starts: only validation and writing are measured.
  const singles = mineRound(store.network, tips, singleInserts, 'single')
  let start = performance.now()
  for (const block of singles) await store.insert(block)
  const singleSeconds = seconds(start)

  const many = mineRound(store.network, tips, manyInserts, 'many')
  start = performance.now()
  for (let at = 0; at < many.length; at += 1_000) await store.insertMany(many.slice(at, at + 1_000))
  const manySeconds = seconds(start)

  // One long chain for the range reads.
  const chain0 = new Map<number, Header>([[0, tips.get(0)!]])
  for (let done = 0; done < rangeBlocks; done += 1_000)
    await store.insertMany(mineRound(store.network, chain0, Math.min(1_000, rangeBlocks - done), `range${done}`))
  await store.close()
  return { singleSeconds, manySeconds }
}

// The raw classic-level reads of chain 0 that the store's reads are compared with.
function rawReads(db: ChainDb): Record<'forAwait' | 'nextv100' | 'nextv1000' | 'pages', Run> {
  const gte = blockKeyLow(0, 0)
  const lte = blockKeyHigh(0, Number.MAX_SAFE_INTEGER)
  const batches = async (size: number): Promise<number> => {
    const iterator = db.iterator({ gte, lte })
    let n = 0
    for (let entries = await iterator.nextv(size); entries.length > 0; entries = await iterator.nextv(size)) n += entries.length
    await iterator.close()
    return n
  }
  return {
    async forAwait() {
      let n = 0
      for await (const entry of db.iterator({ gte, lte })) n += entry.length === 2 ? 1 : 0
      return n
    },
    nextv100: () => batches(100),
    nextv1000: () => batches(1000),
    // The floor of a GET block page: the same iteration plus one getMany of each page's payloads.
    async pages() {
      let page: Buffer[] = []
      let n = 0
      const flush = async (): Promise<void> => {
        const payloads = await db.getMany(page.map((value) => payloadKey(value.subarray(0, 32))))
        page.forEach((value, i) => {
          Buffer.concat([value, payloads[i]!])
        })
        n += page.length
        page = []
      }
      const iterator = db.iterator({ gte, lte })
      for (let entries = await iterator.nextv(1000); entries.length > 0; entries = await iterator.nextv(1000)) {
        for (const [, value] of entries) {
          page.push(value)
          if (page.length === pageSize) await flush()
        }
      }
      await iterator.close()
      await flush()
      return n
    },
  }
}

function storeReads(store: ChainStore): Record<'range' | 'pages', Run> {
  return {
    async range() {
      let n = 0
      for await (const item of store.range({ chain: 0 })) n += item.height >= 0 ? 1 : 0
      return n
    },
    async pages() {
      let n = 0
      let batch: RangeItem[] = []
      for await (const item of store.range({ chain: 0 })) {
        batch.push(item)
        if (batch.length === pageSize) {
          n += (await store.readRangeBlocks(batch)).length
          batch = []
        }
      }
      return n + (await store.readRangeBlocks(batch)).length
    },
  }
}

try {
  // The write phase runs in its own function so that the mined blocks are garbage before the reads.
  const { singleSeconds, manySeconds } = await measureInserts()

  // The raw side reads a byte-identical copy of the folder, so that both are open at once and the
  // measurements can alternate: on a shared machine, load changes faster than a store reopens.
  const rawDir = `${dir}-raw`
  cpSync(dir, rawDir, { recursive: true })
  const db: ChainDb = new ClassicLevel<Buffer, Buffer>(rawDir, { keyEncoding: 'buffer', valueEncoding: 'buffer' })
  await db.open()
  const store = await openStore({ path: dir, network })
  const raw = rawReads(db)
  const ours = storeReads(store)
  const best = new Map<string, number>()
  let items = 0
  const measure = async (name: string, run: Run): Promise<void> => {
    const start = performance.now()
    const n = await run()
    best.set(name, Math.min(best.get(name) ?? Number.POSITIVE_INFINITY, seconds(start)))
    if (items !== 0 && n !== items) throw new Error(`${name} read ${n} blocks, expected ${items}`)
    items = n
  }
  for (let round = 0; round <= rounds; round++) {
    // Round 0 warms both folders up and is not counted.
    if (round === 1) best.clear()
    // Odd rounds run the list backwards, so that neither side always follows the other.
    const runs: Array<[string, Run]> = [
      ['rawForAwait', raw.forAwait],
      ['range', ours.range],
      ['rawNextv100', raw.nextv100],
      ['rawPages', raw.pages],
      ['rawNextv1000', raw.nextv1000],
      ['pages', ours.pages],
    ]
    for (const [name, run] of round % 2 === 0 ? runs : runs.reverse()) await measure(name, run)
  }
  await store.close()
  await db.close()
  rmSync(rawDir, { recursive: true, force: true })
  const figure = (name: string): number => best.get(name)!
  const floor = Math.min(figure('rawForAwait'), figure('rawNextv100'), figure('rawNextv1000'))

  console.log(`validated inserts, insert() one at a time: ${rate(singleInserts, singleSeconds)} (${singleInserts} blocks)`)
  console.log(`validated inserts, insertMany() by 1000: ${rate(manyInserts, manySeconds)} (${manyInserts} blocks)`)
  console.log(
    `range over ${items} blocks: ${rate(items, figure('range'))}; fastest raw classic-level iteration: ${rate(items, floor)} (for-await ${rate(items, figure('rawForAwait'))}, nextv(100) ${rate(items, figure('rawNextv100'))}, nextv(1000) ${rate(items, figure('rawNextv1000'))}); ratio ${(floor / figure('range')).toFixed(2)} (target >= 0.8)`,
  )
  console.log(
    `full-block pages of ${pageSize} (range + readRangeBlocks): ${rate(items, figure('pages'))}; raw iteration + getMany: ${rate(items, figure('rawPages'))}; ratio ${(figure('rawPages') / figure('pages')).toFixed(2)}`,
  )
} finally {
  rmSync(dir, { recursive: true, force: true })
  rmSync(`${dir}-raw`, { recursive: true, force: true })
}
