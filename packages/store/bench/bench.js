// Benchmarks of @weft/store on built code (`pnpm build && pnpm bench`): validated inserts per
// second, and range reads as a ratio to a raw classic-level iteration over the same keys, measured
// in the same run on the same data (best of 15 alternating rounds each).
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ClassicLevel } from 'classic-level'
import { openStore } from '../dist/index.js'
import { blockKeyHigh, blockKeyLow, payloadKey } from '../dist/keys.js'
import { mineRound } from './chain-miner.js'

const singleInserts = Number(process.env.WEFT_BENCH_SINGLE ?? 2_000)
const manyInserts = Number(process.env.WEFT_BENCH_MANY ?? 10_000)
const rangeBlocks = Number(process.env.WEFT_BENCH_RANGE ?? 20_000)
const rounds = 15
const pageSize = 360
const network = 'development'
const dir = mkdtempSync(join(tmpdir(), 'weft-store-bench-'))

const seconds = (start) => (performance.now() - start) / 1000
const rate = (n, s) => `${Math.round(n / s).toLocaleString('en-US')}/s`

async function measureInserts() {
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
  const chain0 = new Map([[0, tips.get(0)]])
  for (let done = 0; done < rangeBlocks; done += 1_000)
    await store.insertMany(mineRound(store.network, chain0, Math.min(1_000, rangeBlocks - done), `range${done}`))
  await store.close()
  return { singleSeconds, manySeconds }
}

try {
  // The write phase runs in its own function so that the mined blocks are garbage before the reads.
  const { singleSeconds, manySeconds } = await measureInserts()
  let store
  let start

  // The raw side reads a byte-identical copy of the folder, so that both are open at once and the
  // measurements can alternate: on a shared machine, load changes faster than a store reopens.
  const rawDir = `${dir}-raw`
  cpSync(dir, rawDir, { recursive: true })
  const db = new ClassicLevel(rawDir, { keyEncoding: 'buffer', valueEncoding: 'buffer' })
  await db.open()
  store = await openStore({ path: dir, network })
  const gte = blockKeyLow(0, 0)
  const lte = blockKeyHigh(0, Number.MAX_SAFE_INTEGER)
  const raw = {
    async forAwait() {
      let n = 0
      for await (const entry of db.iterator({ gte, lte })) n += entry.length === 2 ? 1 : 0
      return n
    },
    async nextv100() {
      return rawBatches(100, () => {})
    },
    async nextv1000() {
      return rawBatches(1000, () => {})
    },
    // The floor of a GET block page: the same iteration plus one getMany of each page's payloads.
    async pages() {
      let page = []
      let n = 0
      const flush = async () => {
        const payloads = await db.getMany(page.map((value) => payloadKey(value.subarray(0, 32))))
        page.forEach((value, i) => Buffer.concat([value, payloads[i]]))
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
  async function rawBatches(size) {
    const iterator = db.iterator({ gte, lte })
    let n = 0
    for (let entries = await iterator.nextv(size); entries.length > 0; entries = await iterator.nextv(size)) n += entries.length
    await iterator.close()
    return n
  }
  const ours = {
    async range() {
      let n = 0
      for await (const item of store.range({ chain: 0 })) n += item.height >= 0 ? 1 : 0
      return n
    },
    async pages() {
      let n = 0
      let batch = []
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
  const best = {}
  let items = 0
  const measure = async (name, run) => {
    const start = performance.now()
    const n = await run()
    best[name] = Math.min(best[name] ?? Infinity, seconds(start))
    if (items !== 0 && n !== items) throw new Error(`${name} read ${n} blocks, expected ${items}`)
    items = n
  }
  for (let round = 0; round <= rounds; round++) {
    // Round 0 warms both folders up and is not counted.
    if (round === 1) for (const key of Object.keys(best)) delete best[key]
    // Odd rounds run the list backwards, so that neither side always follows the other.
    const runs = [
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
  const floor = Math.min(best.rawForAwait, best.rawNextv100, best.rawNextv1000)

  console.log(`validated inserts, insert() one at a time: ${rate(singleInserts, singleSeconds)} (${singleInserts} blocks)`)
  console.log(`validated inserts, insertMany() by 1000: ${rate(manyInserts, manySeconds)} (${manyInserts} blocks)`)
  console.log(
    `range over ${items} blocks: ${rate(items, best.range)}; fastest raw classic-level iteration: ${rate(items, floor)} (for-await ${rate(items, best.rawForAwait)}, nextv(100) ${rate(items, best.rawNextv100)}, nextv(1000) ${rate(items, best.rawNextv1000)}); ratio ${(floor / best.range).toFixed(2)} (target >= 0.8)`,
  )
  console.log(
    `full-block pages of ${pageSize} (range + readRangeBlocks): ${rate(items, best.pages)}; raw iteration + getMany: ${rate(items, best.rawPages)}; ratio ${(best.rawPages / best.pages).toFixed(2)}`,
  )
} finally {
  rmSync(dir, { recursive: true, force: true })
  rmSync(`${dir}-raw`, { recursive: true, force: true })
}
