// Inserts 200,000 validated blocks (WEFT_MEMORY_BLOCKS to change) into a fresh store and reports
// the peak resident set size: `pnpm bench:memory`.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openStore } from '../src/index.js'
import { mineRound } from './mine-round.js'

const total = Number(process.env.WEFT_MEMORY_BLOCKS ?? 200_000)
const limitMb = 300
const chunk = 1_000
const dir = mkdtempSync(join(tmpdir(), 'weft-store-memory-'))
let peak = 0
const sample = (): void => {
  peak = Math.max(peak, process.memoryUsage.rss())
}
const timer = setInterval(sample, 50)
try {
  const store = await openStore({ path: dir, network: 'test-singleton' })
  const tips = new Map(store.cut())
  const started = performance.now()
  for (let done = 0; done < total; done += chunk) {
    // Mined per chunk and dropped after insertion, so the script itself holds no more than a chunk.
    await store.insertMany(mineRound(store.network, tips, Math.min(chunk, total - done), `m${done}`))
    sample()
    if ((done + chunk) % 20_000 === 0)
      console.log(
        `${done + chunk} blocks, rss ${(process.memoryUsage.rss() / 2 ** 20).toFixed(0)} MB, JS heap ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MB`,
      )
  }
  const seconds = (performance.now() - started) / 1000
  await store.close()
  sample()
  const peakMb = peak / 2 ** 20
  console.log(
    `memory: ${total} blocks inserted (mining included) in ${seconds.toFixed(1)} s; peak RSS ${peakMb.toFixed(0)} MB (limit ${limitMb} MB)`,
  )
  process.exitCode = peakMb < limitMb ? 0 : 1
} finally {
  clearInterval(timer)
  rmSync(dir, { recursive: true, force: true })
}
