// `pnpm opening:mine`: mines recap-development's opening once (packages/block/src/data), on every
// core: chains 0-9 from genesis to 71 and chains 10-19 from their genesis at 60 to 71, under the real
// rules. Its genesis targets take about 100,000 (chains 0-9) and 2 million (chains 10-19) hashes per
// block until the adjustments at 12 and 72; the creation times are chosen so that the one at 12
// (the legacy one) brings the target down to 2^254 - 1, and each later epoch keeps it.
import { writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads'
import { gzipSync } from 'node:zlib'
import {
  blockAdjacentChains,
  childHeader,
  computeBlockHash,
  emptyPayload,
  encodeHeader,
  findNonce,
  genesisBlocks,
  getNetwork,
  type Header,
  validateHeader,
} from '@weft/block'
import { decodeHash } from '@weft/hash-text'

const TOP = Number(process.env.WEFT_OPENING_TOP ?? 71)
const network = getNetwork('recap-development')
const delay = network.blockDelay * 1_000_000

/** The creation time of every opening block at `height` (µs): one grid for all chains. */
export function openingTime(height: number): number {
  const first = network.genesisTime + delay
  if (height < 11) return first + (height - 1) * delay
  // Blocks 2-11 share the epoch that height 1 starts (fake first epoch start): 9 * 10^12 + 1 µs
  // make the legacy adjustment at 12 ask for a difficulty just below 4, so the target becomes 2^254 - 1.
  return first + 9_000_000_000_001 + (height - 11) * delay
}

async function main(): Promise<void> {
  const payloadHash = decodeHash(emptyPayload().payloadHash)
  const at = new Map<string, Header>()
  const tips = new Map<number, Header>()
  for (const { header } of genesisBlocks(network)) {
    tips.set(header.chainId, header)
    at.set(`${header.chainId}:${header.height}`, header)
  }
  const workers = Array.from({ length: availableParallelism() }, () => new Worker(fileURLToPath(import.meta.url), { workerData: {} }))
  const mined: Header[] = []
  for (let height = 1; height <= TOP; height++) {
    const unmined: Header[] = []
    for (const [chain, parent] of [...tips].sort(([a], [b]) => a - b)) {
      if (parent.height !== height - 1) continue
      const adjacentParents = blockAdjacentChains(network, chain, height)!.map((c) => at.get(`${c}:${height - 1}`)!)
      unmined.push(childHeader(parent, { creationTime: openingTime(height), adjacentParents, payloadHash }))
    }
    const nonces = await Promise.all(unmined.map((header, index) => search(workers[index % workers.length]!, header)))
    unmined.forEach((header, index) => {
      const done = { ...header, nonce: nonces[index]! }
      done.hash = computeBlockHash(done)
      const parent = at.get(`${done.chainId}:${height - 1}`)
      const adjacentParents = done.adjacents.map(([c]) => at.get(`${c}:${height - 1}`)!)
      const violations = validateHeader(done, { network, parent, adjacentParents })
      if (violations.length > 0) throw new Error(`block ${done.chainId}@${height}: ${violations.map((v) => v.message).join('; ')}`)
      mined.push(done)
      tips.set(done.chainId, done)
      at.set(`${done.chainId}:${height}`, done)
    })
    process.stdout.write(
      `height ${height}: ${unmined.length} blocks, target ${unmined[0]!.target.toString(16).padStart(64, '0').slice(0, 12)}...\n`,
    )
  }
  for (const worker of workers) await worker.terminate()
  const out = fileURLToPath(new URL('../../../packages/block/src/data/opening-recap-development.bin.gz', import.meta.url))
  writeFileSync(out, gzipSync(Buffer.concat(mined.map(encodeHeader)), { level: 9 }))
  process.stdout.write(`wrote ${mined.length} blocks to ${out}\n`)
}

// One proof-of-work search on a worker thread; calls on one worker queue up.
const queues = new WeakMap<Worker, Promise<unknown>>()
function search(worker: Worker, header: Header): Promise<bigint> {
  const previous = queues.get(worker) ?? Promise.resolve()
  const next = previous.then(
    () =>
      new Promise<bigint>((resolve) => {
        worker.once('message', (nonce: string) => resolve(BigInt(nonce)))
        worker.postMessage({ binary: encodeHeader(header), target: header.target.toString() })
      }),
  )
  queues.set(worker, next)
  return next
}

if (isMainThread) {
  if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) await main()
} else if (workerData !== undefined) {
  parentPort!.on('message', ({ binary, target }: { binary: Uint8Array; target: string }) =>
    parentPort!.postMessage(findNonce(Buffer.from(binary), BigInt(target)).toString()),
  )
}
