import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { type Block, genesisBlock, getNetwork, type Header } from '@weft/block'
import t from 'tap'
import type { WriteState } from '../src/disk-guard.js'
import { type ChainStore, openStore, StoreFullError } from '../src/index.js'
import { makePayload, mineLine } from '../src/suite/chain-miner.js'
import { mountTmpfs } from './fixtures/tmpfs.js'
import { transpiledFixture } from './fixtures/transpiled.js'

const network = getNetwork('test-singleton')
const checks = { firstMs: 20, maxMs: 200, resumeFreeBytes: 256 * 1024 }

// Inserts lines of four blocks (with payloads of a few KB) above the cut until the disk refuses one:
// the blocks acknowledged, and the line refused with its error.
async function insertUntilFull(store: ChainStore, tag: string): Promise<{ acked: Block[]; refused: Block[]; error: unknown }> {
  const acked: Block[] = []
  for (let round = 0; round < 2000; round++) {
    const line = mineLine(network, store.cut().get(0)!, 4, { payload: makePayload(`${tag}-${round}`, 12) })
    try {
      await store.insertMany(line)
    } catch (error) {
      return { acked, refused: line, error }
    }
    acked.push(...line)
  }
  throw new Error('Expected the disk to fill up within 8,000 blocks, but it took them all')
}

t.test('a full disk stops the writes with STORE_FULL, reads go on, and writes resume by themselves once space is freed', async (t) => {
  const disk = mountTmpfs(t, 4 * 1024 * 1024)
  if (disk === undefined) return
  const path = join(disk.path, 'store')
  const states: WriteState[] = []
  const store = await openStore({ path, network: 'test-singleton', diskChecks: checks, onWriteState: (state) => states.push(state) })
  const before = mineLine(network, genesisBlock(network, 0).header, 8, { payload: makePayload('before', 4) })
  await store.insertMany(before)
  t.same(store.writeState(), { writable: true })
  await store.whenWritable()

  await disk.fill()
  const { acked, refused, error } = await insertUntilFull(store, 'full')
  t.ok(error instanceof StoreFullError, 'the refusal is the store own STORE_FULL')
  t.match(error, { code: 'STORE_FULL', path, message: /disk is full/ })
  t.ok(
    (error as StoreFullError).freeBytes >= 0 && (error as StoreFullError).freeBytes < checks.resumeFreeBytes,
    'with the free bytes it found',
  )
  t.match(store.writeState(), { writable: false, reason: 'full', path })
  t.equal(states.length, 1, 'told once that the disk is full')

  // Further writes are refused at once (nothing is tried), and every block acknowledged is read.
  const again = mineLine(network, store.cut().get(0)!, 1, { payload: makePayload('again', 1) })
  await t.rejects(store.insertMany(again), { code: 'STORE_FULL' })
  await t.rejects(store.insert(again[0]!), { code: 'STORE_FULL' })
  for (const block of [...before, ...acked])
    t.ok(await store.getBlockJson(block.header.hash), `block ${block.header.height} reads while full`)
  t.equal(states.length, 1, 'a refused write tells nothing new')
  // A check made while the disk is still full finds too little room, tries nothing, and waits again.
  await until(() => {
    const state = store.writeState()
    return !state.writable && state.checks >= 1
  })
  t.match(store.writeState(), { writable: false, reason: 'full' })
  const checked = store.writeState()
  t.ok(!checked.writable && checked.freeBytes < checks.resumeFreeBytes, 'the check found less room than it needs')

  await disk.free()
  await store.whenWritable()
  t.same(store.writeState(), { writable: true })
  t.same(
    states.map((state) => state.writable),
    [false, true],
  )
  const after = mineLine(network, store.cut().get(0)!, 3, { payload: makePayload('after', 2) })
  t.equal(await store.insertMany(after), 3, 'writes go on from where they stopped')
  await store.close()

  const reopened = await openStore({ path, network: 'test-singleton' })
  t.teardown(() => reopened.close())
  for (const block of [...before, ...acked, ...after])
    t.ok(await reopened.getHeader(block.header.hash), `block ${block.header.height} kept`)
  t.equal(await reopened.getHeader(refused[0]!.header.hash), undefined, 'the refused write left nothing')
  t.equal(reopened.cut().get(0)?.hash.toString('hex'), (after.at(-1)!.header as Header).hash.toString('hex'))
})

t.test(
  'a store opened on a full disk is STORE_OPEN_FAILED, reason disk-full; closing a full store ends its checks and its waits',
  async (t) => {
    const disk = mountTmpfs(t, 2 * 1024 * 1024)
    if (disk === undefined) return
    const path = join(disk.path, 'store')
    const store = await openStore({ path, network: 'test-singleton', diskChecks: { ...checks, firstMs: 10_000 } })
    await disk.fill()
    await insertUntilFull(store, 'close')
    const waiting = t.rejects(store.whenWritable(), { code: 'STORE_CLOSED' })
    await store.close()
    await waiting
    await t.rejects(store.whenWritable(), { code: 'STORE_CLOSED' }, 'asked after the close')
    const fresh = join(disk.path, 'fresh')
    await t.rejects(openStore({ path: fresh, network: 'test-singleton' }), { code: 'STORE_OPEN_FAILED', reason: 'disk-full' })
  },
)

t.test('a writer killed while its disk is full loses no acknowledged block: the store opens cleanly once space is freed', async (t) => {
  const disk = mountTmpfs(t, 4 * 1024 * 1024)
  if (disk === undefined) return
  const path = join(disk.path, 'store')
  const writer = transpiledFixture(t.testdir(), 'test/fixtures/crash-writer.ts')
  const child = spawn(process.execPath, [writer, path, '7'], { stdio: ['ignore', 'pipe', 'inherit'] })
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)))
  let output = ''
  const seen = (predicate: (text: string) => boolean): Promise<void> =>
    new Promise((resolve, reject) => {
      const look = (): void => {
        if (!predicate(output)) return
        child.stdout.off('data', look)
        resolve()
      }
      child.stdout.on('data', look)
      void exited.then(() => reject(new Error(`Expected the writer to run on, but it ended: ${output.slice(-500)}`)))
      look()
    })
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  await seen((text) => text.split('\n').length > 20)
  await disk.fill()
  await seen((text) => text.includes('full\n'))
  child.kill('SIGKILL')
  t.equal(await exited, 'SIGKILL')
  const acknowledged = output.split('\n').filter((line) => line !== 'ready' && line !== 'full' && line !== '')
  await disk.free()
  const store = await openStore({ path, network: 'test-singleton' })
  t.teardown(() => store.close())
  const found = await store.getRefs(acknowledged.map((hash) => Buffer.from(hash, 'base64url')))
  t.equal(found.filter((ref) => ref === undefined).length, 0, `all ${acknowledged.length} acknowledged blocks are stored`)
  t.same(store.writeState(), { writable: true })
})

t.test('a store on a read-only mount is refused: STORE_OPEN_FAILED, reason read-only (LevelDB writes to open)', async (t) => {
  const disk = mountTmpfs(t, 1024 * 1024)
  if (disk === undefined) return
  const path = join(disk.path, 'store')
  await (await openStore({ path, network: 'test-singleton' })).close()
  execFileSync('mount', ['-o', 'remount,ro', disk.path])
  await t.rejects(openStore({ path, network: 'test-singleton' }), {
    code: 'STORE_OPEN_FAILED',
    reason: 'read-only',
    detail: /Read-only file system/,
  })
})

t.test('a second process on the same folder is refused: STORE_OPEN_FAILED, reason locked', async (t) => {
  const dir = t.testdir()
  const path = join(dir, 'store')
  const store = await openStore({ path, network: 'test-singleton' })
  t.teardown(() => store.close())
  // The crash test's writer, on a folder this process holds: its openStore fails, and it ends.
  const writer = transpiledFixture(dir, 'test/fixtures/crash-writer.ts')
  const child = spawnSync(process.execPath, [writer, path, '1'], { encoding: 'utf8' })
  t.not(child.status, 0)
  t.match(child.stderr, /code: 'STORE_OPEN_FAILED'/)
  t.match(child.stderr, /reason: 'locked'/)
  t.match(child.stderr, /LOCK/)
})

t.test('a check that finds room by statfs but a disk that still refuses stays full, and checks again', async (t) => {
  const disk = mountTmpfs(t, 2 * 1024 * 1024)
  if (disk === undefined) return
  const path = join(disk.path, 'store')
  const states: WriteState[] = []
  // No bytes needed: every check opens the database again and tries a write, on a disk still full.
  const diskChecks = { firstMs: 10, maxMs: 40, resumeFreeBytes: 0 }
  const store = await openStore({ path, network: 'test-singleton', diskChecks, onWriteState: (state) => states.push(state) })
  t.teardown(() => store.close())
  await disk.fill()
  const { acked } = await insertUntilFull(store, 'refuses')
  await until(() => {
    const state = store.writeState()
    return !state.writable && state.checks >= 3
  })
  t.equal(states.length, 1, 'still full after three checks, told once')
  await disk.free()
  await store.whenWritable()
  for (const block of acked) t.ok(await store.getHeader(block.header.hash))
  t.equal(await store.insertMany(mineLine(network, store.cut().get(0)!, 2, { payload: makePayload('resumed', 1) })), 2)
})

// Resolves once `condition` holds, checked every 20 ms (a state of the store with no event of its own), within a minute.
async function until(condition: () => boolean): Promise<void> {
  for (const end = Date.now() + 60_000; !condition(); ) {
    if (Date.now() > end) throw new Error('Expected the state within a minute')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
