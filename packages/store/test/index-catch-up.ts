import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { type Block, getNetwork } from '@weft/block'
import { INDEX_PREFIX } from '@weft/index'
import t from 'tap'
import { openStore } from '../src/index.js'
import { decodeIndexState, indexStateKey } from '../src/index-state.js'
import { blockKey, decodeBlockRecord, encodeBlockRecord } from '../src/keys.js'
import { expectedEvents, expectedPlace, placeOf } from './fixtures/index-expectations.js'
import { devnetPayloads, expectedEntries, onThreeChains, payloadBraid, requestKeysOf } from './fixtures/indexed-blocks.js'
import { editFolder } from './fixtures/level.js'
import { transpiledFixture } from './fixtures/transpiled.js'

const network = getNetwork('development')
const indexRange = { gte: Buffer.of(INDEX_PREFIX), lt: Buffer.of(INDEX_PREFIX + 1) }

// A store written without its index: 20 heights of every chain per round, chains 0, 1 and 2 carrying the 60 devnet payloads each round.
async function unindexed(path: string, rounds = 1): Promise<Block[]> {
  const store = await openStore({ path, network: 'development', index: false })
  const blocks = payloadBraid(network, store.cut(), 20 * rounds, onThreeChains)
  await store.insertMany(blocks)
  await store.close()
  return blocks
}

t.test('while the index catches up, pages answer down to where it is complete, and lookups say they may miss a copy', async (t) => {
  const path = t.testdir()
  const old = await unindexed(path)
  const frozen = await openStore({ path, network: 'development', indexCatchUp: false })
  const status = frozen.index.status()
  t.match(status, {
    state: 'catching-up',
    remainingHeights: 20 * 21,
    progress: 0,
    indexedBlocks: 0,
    completeFrom: { 0: 21, 1: 21, 2: 21, 3: 21 },
  })
  const query = { module: 'coin', name: 'TRANSFER', limit: 5 }
  t.same(await frozen.index.events(query), { items: [], next: undefined, incompleteBelow: 21 }, 'nothing is answered yet')
  // New blocks are written with their entries: they are answered, and the page stops where completeness ends.
  const braid = payloadBraid(network, frozen.cut(), 4, (chain, i) => (chain === 0 ? devnetPayloads[i] : undefined))
  await frozen.insertMany(braid)
  const fresh = braid.filter((block) => block.header.chainId === 0)
  const expectedFresh = expectedEvents(fresh, (event) => event.module === 'coin' && event.name === 'TRANSFER')
  const first = await frozen.index.events({ ...query, limit: 1000 })
  t.same(first.items.map(placeOf), expectedFresh.map(expectedPlace))
  t.equal(first.incompleteBelow, 21)
  t.type(first.next, 'string', 'a next token to go on from once the catch-up has passed')
  const short = await frozen.index.events({ ...query, limit: 2 })
  t.equal(short.incompleteBelow, undefined, 'a full page is no incomplete one')
  const again = await frozen.index.events({ ...query, limit: 1000, next: first.next! })
  t.same(again, { items: [], next: first.next, incompleteBelow: 21 }, 'going on before the catch-up gives nothing, and the same token')
  t.equal((await frozen.index.events({ ...query, minheight: 21, limit: 1000 })).incompleteBelow, undefined, 'complete above 21')
  // A transaction of a payload the fresh blocks do not carry.
  const [oldKey] = requestKeysOf(
    old.find((block) => block.header.chainId === 2 && block.header.height > 3 && block.payload.transactions.length > 0)!,
  )
  t.same(await frozen.index.transaction(oldKey!), { complete: false, copies: [] })
  const [freshKey] = requestKeysOf(fresh[0]!)
  const found = await frozen.index.transaction(freshKey!)
  t.equal(found.complete, false)
  t.equal(found.copies.length, 1)
  t.equal((await frozen.index.transaction(freshKey!, { chain: 9 })).complete, false, 'chain 9 is not caught up either')
  await frozen.close()
  const store = await openStore({ path, network: 'development' })
  t.teardown(() => store.close())
  t.same(await store.index.caughtUp(), { state: 'complete' })
  const rest = await store.index.events({ ...query, limit: 1000, next: first.next! })
  t.same(rest.items.map(placeOf), expectedEvents(old, (event) => event.module === 'coin' && event.name === 'TRANSFER').map(expectedPlace))
  t.equal(rest.next, undefined)
})

t.test('a catch-up that fails stops, says why in its status, and answers nothing below where it stands', async (t) => {
  const path = t.testdir()
  const old = await unindexed(path)
  // A record of chain 2 whose payload is no JSON: the catch-up reads it in its first step.
  const damaged = old.find((block) => block.header.chainId === 2 && block.header.height === 15)!.header
  await editFolder(path, async (db) => {
    const key = blockKey(damaged.chainId, damaged.height, damaged.hash)
    const record = decodeBlockRecord((await db.get(key))!)
    await db.put(key, encodeBlockRecord({ ...record, payloadJson: 'not json' }))
  })
  const store = await openStore({ path, network: 'development' })
  t.teardown(() => store.close())
  const status = await store.index.caughtUp()
  t.match(status, { state: 'catching-up', progress: 0, indexedBlocks: 0, error: /JSON/ })
  t.same(await store.index.events({ module: 'coin', name: 'TRANSFER' }), { items: [], next: undefined, incompleteBelow: 21 })
})

t.test('a catch-up killed at random moments resumes from its recorded position and ends with every entry', async (t) => {
  // One folder per test: the store in one part of it, the child's code in another.
  const dir = t.testdir({ store: {}, code: {} })
  const path = join(dir, 'store')
  const blocks = await unindexed(path, 5)
  const expected = new Map<string, string>()
  for (const block of blocks) for (const [key, value] of expectedEntries(block)) expected.set(key, value)
  const child = transpiledFixture(join(dir, 'code'), 'test/fixtures/catch-up-child.ts')
  let midway = 0
  // The progress recorded in the store: a run resumes from it, and it never goes back.
  let recorded = 0
  for (let round = 0; round < 6; round++) {
    const { killed, progress } = await runAndKill(child, path, Math.random() * 150)
    t.ok(
      progress.every((value, i) => value >= (i === 0 ? recorded : progress[i - 1]!) && value <= 1),
      `round ${round}: the progress shown goes up from where the last run left it (${recorded.toFixed(3)}: ${progress.map((p) => p.toFixed(3)).join(' ')})`,
    )
    const state = await stateIn(path)
    if (state.state === 'complete') break
    t.equal(state.state, 'catching-up')
    if (state.state !== 'catching-up') break
    const remaining = [...state.below.values()].reduce((sum, height) => sum + height, 0)
    t.equal(state.total, 20 * 101, 'the total is the one counted when the catch-up began')
    t.ok(1 - remaining / state.total >= recorded, 'the recorded position never goes back')
    recorded = 1 - remaining / state.total
    if (killed) midway++
  }
  t.ok(midway > 0, `killed mid-way ${midway} times`)
  const store = await openStore({ path, network: 'development' })
  t.same(await store.index.caughtUp(), { state: 'complete' })
  await store.close()
  const entries = new Map<string, string>()
  await editFolder(path, async (db) => {
    for (const [key, value] of await db.iterator(indexRange).all()) entries.set(key.toString('hex'), value.toString('hex'))
  })
  t.same(entries, expected)
})

async function stateIn(path: string): Promise<ReturnType<typeof decodeIndexState>> {
  let state: ReturnType<typeof decodeIndexState> | undefined
  await editFolder(path, async (db) => {
    state = decodeIndexState((await db.get(indexStateKey))!)
  })
  return state!
}

// Starts the child on `path`, and kills it with SIGKILL `delay` ms after its catch-up has written a
// step: whether it was killed (not done first), and the progress it showed.
async function runAndKill(script: string, path: string, delay: number): Promise<{ killed: boolean; progress: number[] }> {
  const child = spawn(process.execPath, [script, path], { stdio: ['ignore', 'pipe', 'inherit'] })
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)))
  let output = ''
  await new Promise<void>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes('step ') || output.includes('done\n')) resolve()
    })
    void exited.then(() => resolve())
  })
  await new Promise((resolve) => setTimeout(resolve, delay))
  child.kill('SIGKILL')
  const killed = (await exited) === 'SIGKILL'
  const progress = output.split('\n').flatMap((line) => (line.startsWith('step ') ? [Number(line.slice(5))] : []))
  return { killed, progress }
}
