import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { type Block, getNetwork } from '@weft/block'
import { INDEX_PREFIX } from '@weft/index'
import t from 'tap'
import { openStore } from '../src/index.js'
import { decodeIndexState, indexStateKey } from '../src/index-state.js'
import { expectedEvents, expectedPlace, placeOf } from './fixtures/index-expectations.js'
import { devnetPayloads, expectedEntries, payloadLine, requestKeysOf } from './fixtures/indexed-blocks.js'
import { editFolder } from './fixtures/level.js'
import { transpiledFixture } from './fixtures/transpiled.js'

const network = getNetwork('development')
const indexRange = { gte: Buffer.of(INDEX_PREFIX), lt: Buffer.of(INDEX_PREFIX + 1) }

// A store written without its index: `rounds` runs of the 60 devnet payloads on chains 0, 1 and 2.
async function unindexed(path: string, rounds = 1): Promise<Block[]> {
  const store = await openStore({ path, network: 'development', checkBraiding: false, index: false })
  const blocks: Block[] = []
  for (const chain of [0, 1, 2]) {
    const payloads = Array.from({ length: rounds }, () => devnetPayloads.filter((_, i) => i % 3 === chain)).flat()
    const line = payloadLine(network, store.cut().get(chain)!, payloads)
    await store.insertMany(line)
    blocks.push(...line)
  }
  await store.close()
  return blocks
}

t.test('while the index catches up, pages answer down to where it is complete, and lookups say they may miss a copy', async (t) => {
  const path = t.testdir()
  const old = await unindexed(path)
  const frozen = await openStore({ path, network: 'development', checkBraiding: false, indexCatchUp: false })
  const status = frozen.index.status()
  t.match(status, { state: 'catching-up', remainingHeights: 80, progress: 0, indexedBlocks: 0, completeFrom: { 0: 21, 1: 21, 2: 21, 3: 1 } })
  const query = { module: 'coin', name: 'TRANSFER', limit: 5 }
  t.same(await frozen.index.events(query), { items: [], next: undefined, incompleteBelow: 21 }, 'nothing is answered yet')
  // New blocks are written with their entries: they are answered, and the page stops where completeness ends.
  const fresh = payloadLine(network, frozen.cut().get(0)!, devnetPayloads.slice(0, 4))
  await frozen.insertMany(fresh)
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
  const [oldKey] = requestKeysOf(old.find((block) => block.header.chainId === 2 && block.header.height > 3 && block.payload.transactions.length > 0)!)
  t.same(await frozen.index.transaction(oldKey!), { complete: false, copies: [] })
  const [freshKey] = requestKeysOf(fresh[0]!)
  const found = await frozen.index.transaction(freshKey!)
  t.equal(found.complete, false)
  t.equal(found.copies.length, 1)
  t.equal((await frozen.index.transaction(freshKey!, { chain: 9 })).complete, false, 'chain 9 is not caught up either')
  await frozen.close()
  const store = await openStore({ path, network: 'development', checkBraiding: false })
  t.teardown(() => store.close())
  t.same(await store.index.caughtUp(), { state: 'complete' })
  const rest = await store.index.events({ ...query, limit: 1000, next: first.next! })
  t.same(rest.items.map(placeOf), expectedEvents(old, (event) => event.module === 'coin' && event.name === 'TRANSFER').map(expectedPlace))
  t.equal(rest.next, undefined)
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
  for (let round = 0; round < 6; round++) {
    const killed = await runAndKill(child, path, Math.random() * 150)
    let state: ReturnType<typeof decodeIndexState> | undefined
    await editFolder(path, async (db) => {
      state = decodeIndexState((await db.get(indexStateKey))!)
    })
    if (state?.state === 'catching-up' && killed) midway++
    if (state?.state === 'complete') break
  }
  t.ok(midway > 0, `killed mid-way ${midway} times`)
  const store = await openStore({ path, network: 'development', checkBraiding: false })
  t.same(await store.index.caughtUp(), { state: 'complete' })
  await store.close()
  const entries = new Map<string, string>()
  await editFolder(path, async (db) => {
    for (const [key, value] of await db.iterator(indexRange).all()) entries.set(key.toString('hex'), value.toString('hex'))
  })
  t.same(entries, expected)
})

// Starts the child on `path`, and kills it with SIGKILL `delay` ms after its catch-up has written a step; true when it was killed.
async function runAndKill(script: string, path: string, delay: number): Promise<boolean> {
  const child = spawn(process.execPath, [script, path], { stdio: ['ignore', 'pipe', 'inherit'] })
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)))
  let output = ''
  await new Promise<void>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes('step\n') || output.includes('done\n')) resolve()
    })
    void exited.then(() => resolve())
  })
  await new Promise((resolve) => setTimeout(resolve, delay))
  child.kill('SIGKILL')
  return (await exited) === 'SIGKILL'
}
