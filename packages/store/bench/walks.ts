// Walks down a chain (`pnpm bench`): a reorg 1,000 blocks deep and an ancestor 10,000 heights below a
// head, each against the way they were read before (one or two point reads per ancestor), on the
// same store in the same run, best of several alternating rounds.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Block, genesisBlock, getNetwork, type Header } from '@weft/block'
import { ancestorAt, type HeaderSource } from '@weft/traversal'
import { type ChainStore, openStore } from '../src/index.js'
import { makePayload, mineLine, mineValidChild } from '../src/suite/chain-miner.js'

const reorgDepth = Number(process.env.WEFT_BENCH_REORG ?? 1_000)
const ancestorDepth = Number(process.env.WEFT_BENCH_ANCESTOR ?? 10_000)
const rounds = 5
// test-singleton: one chain, where a line is a valid braid.
const network = getNetwork('test-singleton')
const root = mkdtempSync(join(tmpdir(), 'weft-store-walks-'))

const milliseconds = (start: number): number => performance.now() - start
const open = (path: string): Promise<ChainStore> => openStore({ path, network: 'test-singleton' })

// The reorg walk as the store did it before: the new branch down to the old one's height and both
// down to the fork point, each ancestor read by hash (hash index, then block record).
async function pointReadWalk(store: ChainStore, newHead: Header, oldHead: Header): Promise<number> {
  const load = async (hash: Buffer): Promise<Header> => (await store.getStoredHeader(hash))!.header
  let [onNew, onOld, joined] = [newHead, oldHead, 0]
  while (onNew.height > onOld.height) [onNew, joined] = [await load(onNew.parent), joined + 1]
  while (onOld.height > onNew.height) onOld = await load(onOld.parent)
  while (!onNew.hash.equals(onOld.hash)) [onNew, onOld, joined] = [await load(onNew.parent), await load(onOld.parent), joined + 1]
  return joined
}

// A folder whose chain 0 has a line of `depth` blocks (the head) and one a block shorter beside it
// from genesis, with the two blocks that make the short one win: inserting them walks `depth` blocks on each.
async function reorgFolder(path: string, depth: number, tag: string): Promise<{ overtaking: Block[]; oldHead: Header }> {
  const store = await open(path)
  const g = genesisBlock(network, 0).header
  const long = mineLine(network, g, depth, { payload: makePayload(`${tag}-long`) })
  const short = mineLine(network, g, depth - 1, { payload: makePayload(`${tag}-short`) })
  await store.insertMany(long)
  await store.insertMany(short)
  await store.close()
  return { overtaking: mineLine(network, short.at(-1)!.header, 2), oldHead: long.at(-1)!.header }
}

async function measureReorgs(): Promise<{ batched: number; pointReads: number }> {
  let [batched, pointReads] = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY]
  for (let round = 0; round < rounds; round++) {
    const path = join(root, `reorg-${round}`)
    const { overtaking, oldHead } = await reorgFolder(path, reorgDepth, `r${round}`)
    // Each measurement on a store just opened (only the heads in memory), in alternating order.
    const measurements = [
      async () => {
        const store = await open(path)
        const start = performance.now()
        await store.insertMany(overtaking)
        batched = Math.min(batched, milliseconds(start))
        if (store.cut().get(0)?.hash.equals(overtaking[1]!.header.hash) !== true) throw new Error('Expected the reorg to happen')
        await store.close()
      },
      async () => {
        const store = await open(path)
        const start = performance.now()
        await store.insert(overtaking[0]!)
        const joined = await pointReadWalk(store, overtaking[1]!.header, oldHead)
        pointReads = Math.min(pointReads, milliseconds(start))
        if (joined !== reorgDepth + 1) throw new Error(`Expected ${reorgDepth + 1} joined blocks, walked ${joined}`)
        await store.close()
      },
    ]
    for (const measure of round % 2 === 0 ? measurements : measurements.reverse()) await measure()
  }
  return { batched, pointReads }
}

// A line of `depth` + 1 blocks on chain 0, with an orphan beside every block when `orphans` is set.
async function ancestorStore(path: string, depth: number, orphans: boolean): Promise<{ store: ChainStore; tip: Header }> {
  const store = await open(path)
  let tip = genesisBlock(network, 0).header
  for (let done = 0; done < depth + 1; done += 1_000) {
    const line = mineLine(network, tip, Math.min(1_000, depth + 1 - done), { payload: makePayload(`a${done}`) })
    const beside = orphans
      ? line.map((_, index) => mineValidChild(network, line[index - 1]?.header ?? tip, { payload: makePayload(`o${done}-${index}`) }))
      : []
    await store.insertMany([...line, ...beside])
    tip = line.at(-1)!.header
  }
  return { store, tip }
}

async function measureAncestors(orphans: boolean): Promise<{ batched: number; perHeight: number }> {
  const { store, tip } = await ancestorStore(join(root, `ancestors-${orphans}`), ancestorDepth, orphans)
  const target = tip.height - ancestorDepth
  // The same store seen as a bare HeaderSource: traversal walks it with one getRefs per height.
  const bare: HeaderSource = { getRefs: (hashes) => store.getRefs(hashes) }
  let [batched, perHeight] = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY]
  for (let round = 0; round <= rounds; round++) {
    let start = performance.now()
    const found = await store.ancestorAt(tip.hash, target)
    const batchedTime = milliseconds(start)
    start = performance.now()
    const walked = await ancestorAt(bare, tip.hash, target)
    const perHeightTime = milliseconds(start)
    if (found === undefined || walked === undefined || !found.hash.equals(walked.hash)) throw new Error('Expected the same ancestor')
    // Round 0 warms the store up and is not counted.
    if (round > 0) [batched, perHeight] = [Math.min(batched, batchedTime), Math.min(perHeight, perHeightTime)]
  }
  await store.close()
  return { batched, perHeight }
}

try {
  const reorg = await measureReorgs()
  const ancestor = await measureAncestors(false)
  const dense = await measureAncestors(true)
  const ms = (value: number): string => `${value.toFixed(1)} ms`
  console.log(
    `reorg walk ${reorgDepth} blocks deep on a store just opened (insert of the overtaking block): ${ms(reorg.batched)}; the walk alone by two point reads per ancestor (as before): ${ms(reorg.pointReads)}; ${(reorg.pointReads / reorg.batched).toFixed(1)}x cheaper`,
  )
  console.log(
    `ancestor ${ancestorDepth} heights below a head: store.ancestorAt ${ms(ancestor.batched)}; one getRefs per height (traversal over a bare HeaderSource): ${ms(ancestor.perHeight)}; ${(ancestor.perHeight / ancestor.batched).toFixed(1)}x cheaper`,
  )
  console.log(
    `the same with an orphan beside every block (no height with a single block): store.ancestorAt ${ms(dense.batched)}; one getRefs per height: ${ms(dense.perHeight)}; ${(dense.perHeight / dense.batched).toFixed(1)}x cheaper`,
  )
} finally {
  rmSync(root, { recursive: true, force: true })
}
