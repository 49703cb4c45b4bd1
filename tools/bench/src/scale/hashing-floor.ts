import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'
import type { Block } from '@weft/block'

/**
 * The hashing work of validation alone (block hash, payload hashes, proof of work) on every core
 * at once: one worker thread per core hashing `blocks` for `seconds`; blocks per second in all.
 * The floor of the fill rate: a validated insert cannot be cheaper than its hashing.
 */
export async function hashingOnAllCores(blocks: readonly Block[], seconds: number, threads = availableParallelism()): Promise<number> {
  const results = await Promise.all(
    Array.from(
      { length: threads },
      () =>
        new Promise<{ hashed: number; seconds: number }>((resolve, reject) => {
          const worker = new Worker(new URL('./hashing-worker.js', import.meta.url), {
            workerData: { blocks, milliseconds: seconds * 1000 },
          })
          worker.once('message', resolve)
          worker.once('error', reject)
        }),
    ),
  )
  return results.reduce((sum, result) => sum + result.hashed / result.seconds, 0)
}
