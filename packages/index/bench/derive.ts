// `pnpm bench` in packages/index: the cost of deriving and encoding index entries on the write path,
// per block and per transaction, against the payload hashing every validated insert already does
// (a floor measured in the same run), and the index's bytes per transaction and per event, raw and
// as LevelDB stores them. On the devnet blocks of test/fixtures (tools/repo-checks writes them).
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { computePayloadHashes } from '@weft/block'
import type { PayloadWithOutputs } from '@weft/types'
import { ClassicLevel } from 'classic-level'
import { deriveEntries, encodeEntries, type IndexableBlock, IndexKind, type IndexOperation } from '../src/index.js'

const rounds = Number(process.env.WEFT_BENCH_ROUNDS ?? 15)
const copies = Number(process.env.WEFT_BENCH_COPIES ?? 200)
// Run from .bench/bench/: the fixture is in the package's test folder.
const fixture = JSON.parse(readFileSync(new URL('../../test/fixtures/devnet-blocks.json', import.meta.url), 'utf8')) as Array<{
  chain: number
  height: number
  hash: string
  payload: PayloadWithOutputs
}>
const blocks: IndexableBlock[] = fixture.map((block) => ({ ...block, hash: Buffer.from(block.hash, 'base64url') }))
const transactions = blocks.reduce((sum, block) => sum + block.payload.transactions.length, 0)

// CPU µs per block of each task over all blocks: the best of `rounds`, each of 5 passes, the tasks
// taking turns (CPU time, and turns, so that other jobs on a shared machine count less).
function cpuPerBlock<K extends string>(tasks: Record<K, () => void>): Record<K, number> {
  const best = {} as Record<K, number>
  for (let round = 0; round < rounds; round++) {
    for (const [name, run] of Object.entries(tasks) as Array<[K, () => void]>) {
      const start = process.cpuUsage()
      for (let pass = 0; pass < 5; pass++) run()
      const used = process.cpuUsage(start)
      best[name] = Math.min(best[name] ?? Number.POSITIVE_INFINITY, (used.user + used.system) / 5 / blocks.length)
    }
  }
  return best
}

const derived = blocks.map(deriveEntries)
// As a store would call it from the thread that hashed the payload: the outputs already decoded.
const decodedBlocks = blocks.map((block) => ({
  ...block,
  decodedOutputs: [block.payload.coinbase, ...block.payload.transactions.map(([, output]) => output)].map((text) =>
    Buffer.from(text, 'base64url'),
  ),
}))
const { floor, derive, deriveDecoded, encode } = cpuPerBlock({
  floor: () => {
    for (const block of blocks) computePayloadHashes(block.payload)
  },
  derive: () => {
    for (const block of blocks) deriveEntries(block)
  },
  deriveDecoded: () => {
    for (const block of decodedBlocks) deriveEntries(block)
  },
  encode: () => {
    for (const entries of derived) encodeEntries(entries)
  },
})

// Raw bytes (key + value) by index.
const operations = derived.flatMap(encodeEntries)
const bytesOf = (ops: readonly IndexOperation[]) => ops.reduce((sum, { key, value }) => sum + key.length + value.length, 0)
const byKind = (kind: number) => operations.filter(({ key }) => key[1] === kind)
const events = derived.reduce((sum, entries) => sum + entries.events.length, 0)
const transfers = derived.reduce((sum, entries) => sum + entries.transfers.length, 0)

// On disk: the blocks `copies` times at other heights and hashes into one LevelDB folder, then the
// payloads' JSON texts (what the store keeps of them) into another, each compacted; the CPU time of
// each, every thread (LevelDB's own included), entries made beforehand so that only writing counts.
async function onDisk(): Promise<{ index: number; payloads: number; indexCpu: number; payloadCpu: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'weft-index-bench-'))
  const copiesOf = Array.from({ length: copies }, (_, copy) =>
    blocks.map((block): IndexableBlock => {
      const hash = Buffer.from(block.hash)
      hash.writeUInt32BE(copy)
      return { ...block, hash, height: block.height + copy * 10 }
    }),
  )
  const indexBatches = copiesOf.map((moved) =>
    moved.flatMap((block) => encodeEntries(deriveEntries(block)).map(({ key, value }) => ({ type: 'put' as const, key, value }))),
  )
  const payloadBatches = copiesOf.map((moved) =>
    moved.map((block) => ({ type: 'put' as const, key: Buffer.from(block.hash), value: Buffer.from(JSON.stringify(block.payload)) })),
  )
  const write = async (name: string, batches: typeof indexBatches): Promise<{ bytes: number; cpu: number }> => {
    const db = new ClassicLevel<Buffer, Buffer>(join(dir, name), { keyEncoding: 'buffer', valueEncoding: 'buffer' })
    await db.open()
    const start = process.cpuUsage()
    for (const batch of batches) await db.batch(batch)
    await db.compactRange(Buffer.alloc(0), Buffer.alloc(64, 0xff))
    const used = process.cpuUsage(start)
    await db.close()
    const bytes = readdirSync(join(dir, name)).reduce((sum, file) => sum + statSync(join(dir, name, file)).size, 0)
    return { bytes, cpu: (used.user + used.system) / copies / blocks.length }
  }
  const index = await write('index', indexBatches)
  const payloads = await write('payloads', payloadBatches)
  rmSync(dir, { recursive: true, force: true })
  return { index: index.bytes, payloads: payloads.bytes, indexCpu: index.cpu, payloadCpu: payloads.cpu }
}

const disk = await onDisk()
const perTx = (n: number) => (n / transactions).toFixed(1)
const lines = [
  `@weft/index on ${blocks.length} devnet blocks (${transactions} transactions, ${events} events, ${transfers} transfers)`,
  `derive: ${derive.toFixed(1)} µs per block, ${((derive * blocks.length) / transactions).toFixed(2)} µs per transaction`,
  `derive from decoded outputs: ${deriveDecoded.toFixed(1)} µs per block, ${((deriveDecoded * blocks.length) / transactions).toFixed(2)} µs per transaction`,
  `encode: ${encode.toFixed(1)} µs per block (${(operations.length / blocks.length).toFixed(1)} operations)`,
  `derive + encode against payload hashing (${floor.toFixed(1)} µs per block, same run): ${((derive + encode) / floor).toFixed(2)}`,
  `raw bytes: ${perTx(bytesOf(operations))} per transaction (all indexes, coinbase included); ${(bytesOf(byKind(IndexKind.event)) / events).toFixed(1)} per event; ${(bytesOf(byKind(IndexKind.account)) / byKind(IndexKind.account).length).toFixed(1)} per account entry; ${(bytesOf(byKind(IndexKind.transaction)) / byKind(IndexKind.transaction).length).toFixed(1)} per request key`,
  `on disk (x${copies}, compacted): index ${(disk.index / copies / transactions).toFixed(1)} bytes per transaction, ${((disk.index / disk.payloads) * 100).toFixed(1)}% of the payloads' ${(disk.payloads / copies / transactions).toFixed(0)} bytes per transaction`,
  `writing and compacting, CPU: the index ${disk.indexCpu.toFixed(1)} µs per block, ${(disk.indexCpu / disk.payloadCpu).toFixed(2)} of the payloads' (${disk.payloadCpu.toFixed(1)} µs)`,
]
process.stdout.write(`${lines.join('\n')}\n`)
