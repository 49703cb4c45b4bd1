// Benchmarks of @weft/store on built code (`pnpm build && pnpm bench`): validated inserts per
// second, and range reads as a ratio to a raw classic-level iteration over the same keys, measured
// in the same run on the same folder.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ClassicLevel } from 'classic-level'
import { openStore } from '../dist/index.js'
import { blockKeyHigh, blockKeyLow, payloadKey } from '../dist/keys.js'
import { mineRound } from './chain-miner.js'

const singleInserts = Number(process.env.WEFT_BENCH_SINGLE ?? 2_000)
const manyInserts = Number(process.env.WEFT_BENCH_MANY ?? 10_000)
const rangeBlocks = Number(process.env.WEFT_BENCH_RANGE ?? 20_000)
const rounds = 7
const pageSize = 360
const network = 'development'
const dir = mkdtempSync(join(tmpdir(), 'weft-store-bench-'))

const seconds = (start) => (performance.now() - start) / 1000
const rate = (n, s) => `${Math.round(n / s).toLocaleString('en-US')}/s`

try {
  let store = await openStore({ path: dir, network })
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
  for (let done = 0; done < rangeBlocks; done += 1_000) await store.insertMany(mineRound(store.network, chain0, Math.min(1_000, rangeBlocks - done), `range${done}`))
  await store.close()

  const gte = blockKeyLow(0, 0)
  const lte = blockKeyHigh(0, Number.MAX_SAFE_INTEGER)
  const best = { raw: Infinity, rawNext: Infinity, range: Infinity, rawPages: Infinity, pages: Infinity }
  let items = 0
  // The number of block records of chain 0, counted once before the timed rounds.
  const counter = new ClassicLevel(dir, { keyEncoding: 'buffer', valueEncoding: 'buffer' })
  const items0 = (await counter.keys({ gte, lte }).all()).length
  await counter.close()
  for (let round = 0; round < rounds; round++) {
    const db = new ClassicLevel(dir, { keyEncoding: 'buffer', valueEncoding: 'buffer' })
    await db.open()
    // Warm-up, untimed: both sides are measured on a database that has read these blocks once.
    for await (const entry of db.iterator({ gte, lte })) if (entry.length !== 2) throw new Error('unreachable')
    start = performance.now()
    let raw = 0
    for await (const entry of db.iterator({ gte, lte })) raw += entry.length === 2 ? 1 : 0
    best.rawNext = Math.min(best.rawNext, seconds(start))
    // The floor: the cheapest way classic-level iterates, whole batches of 1000 per native call.
    start = performance.now()
    const iterator = db.iterator({ gte, lte })
    for (let entries = await iterator.nextv(1000); entries.length > 0; entries = await iterator.nextv(1000)) raw -= entries.length
    await iterator.close()
    best.raw = Math.min(best.raw, seconds(start))
    if (raw !== 0) throw new Error('the two raw iterations disagree')
    raw = items0
    // The floor of a GET block page: the same iteration plus one getMany of the pages' payloads.
    start = performance.now()
    let page = []
    const flush = async () => {
      const payloads = await db.getMany(page.map((value) => payloadKey(value.subarray(0, 32))))
      page.forEach((value, i) => Buffer.concat([value, payloads[i]]))
      page = []
    }
    const pageIterator = db.iterator({ gte, lte })
    for (let entries = await pageIterator.nextv(1000); entries.length > 0; entries = await pageIterator.nextv(1000)) {
      for (const [, value] of entries) {
        page.push(value)
        if (page.length === pageSize) await flush()
      }
    }
    await pageIterator.close()
    await flush()
    best.rawPages = Math.min(best.rawPages, seconds(start))
    await db.close()

    store = await openStore({ path: dir, network })
    for await (const item of store.range({ chain: 0 })) items += item.height >= 0 ? 0 : 1
    start = performance.now()
    items = 0
    for await (const item of store.range({ chain: 0 })) items += item.height >= 0 ? 1 : 0
    best.range = Math.min(best.range, seconds(start))
    if (items !== raw) throw new Error(`range yielded ${items} items, the raw iteration ${raw}`)
    start = performance.now()
    let batch = []
    for await (const item of store.range({ chain: 0 })) {
      batch.push(item)
      if (batch.length === pageSize) {
        await store.readRangeBlocks(batch)
        batch = []
      }
    }
    await store.readRangeBlocks(batch)
    best.pages = Math.min(best.pages, seconds(start))
    await store.close()
  }

  console.log(`validated inserts, insert() one at a time: ${rate(singleInserts, singleSeconds)} (${singleInserts} blocks)`)
  console.log(`validated inserts, insertMany() by 1000: ${rate(manyInserts, manySeconds)} (${manyInserts} blocks)`)
  console.log(`range over ${items} blocks: ${rate(items, best.range)}; raw classic-level nextv(1000) iteration: ${rate(items, best.raw)}; ratio ${(best.raw / best.range).toFixed(2)} (target >= 0.8); raw for-await iteration: ${rate(items, best.rawNext)}`)
  console.log(`full-block pages of ${pageSize} (range + readRangeBlocks): ${rate(items, best.pages)}; raw nextv iteration + getMany: ${rate(items, best.rawPages)}; ratio ${(best.rawPages / best.pages).toFixed(2)}`)
} finally {
  rmSync(dir, { recursive: true, force: true })
}
