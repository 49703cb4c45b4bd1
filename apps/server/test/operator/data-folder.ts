import { spawn } from 'node:child_process'
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { openStore, StoreOpenError } from '@weft/store'
import { mineLine } from '@weft/store/suite'
import { until } from '@weft/test-kit'
import { ClassicLevel } from 'classic-level'
import { pino } from 'pino'
import t from 'tap'
import { startServer } from '../../src/index.js'
import { openNodeStore, storeOpenAnswer } from '../../src/operator/data-folder.js'
import { collect } from '../fixtures/cli.js'

const child = fileURLToPath(new URL('../fixtures/store-child.ts', import.meta.url))

// Runs the child with this process's loader flags, so that it runs the TypeScript source.
function runChild(args: string[]) {
  const proc = spawn(process.execPath, [...process.execArgv, child, ...args], { stdio: ['pipe', 'pipe', 'inherit'] })
  const out = collect(proc.stdout)
  const exited = new Promise((resolve) => proc.on('exit', resolve))
  return { proc, out, exited }
}

t.test('a store locked by another process names the lock and the fix', async (t) => {
  const data = t.testdir()
  const holder = runChild(['hold', data])
  t.teardown(() => holder.proc.kill())
  await until(() => holder.out().includes('held'), 'the holder to hold the folder')
  await t.rejects(openNodeStore({ path: data, network: 'development' }), {
    code: 'STORE_LOCKED',
    message: /another process holds its lock .* Fix: stop that process, or give --data another folder/,
  })
  holder.proc.stdin.end()
  await holder.exited
  const store = await openNodeStore({ path: data, network: 'development' })
  await store.close()
  t.pass('the folder opens once the other process let go')
})

t.test('a folder this user may not write names the permission and the fix', async (t) => {
  const data = join(t.testdir(), 'store')
  mkdirSync(data)
  chmodSync(data, 0o700)
  const asRoot = process.getuid?.() === 0
  // Root passes any mode: the open then runs in a child that drops to `nobody`.
  if (!asRoot) chmodSync(data, 0)
  const outcome = asRoot
    ? await (async () => {
        const opener = runChild(['open', data, 'nobody'])
        await opener.exited
        return JSON.parse(opener.out()) as { code: string; message: string }
      })()
    : await openNodeStore({ path: data, network: 'development' }).then(
        () => ({ code: 'opened', message: '' }),
        (error: { code: string; message: string }) => error,
      )
  // Writable again, so that tap can remove the folder.
  chmodSync(data, 0o700)
  t.equal(outcome.code, 'STORE_PERMISSION_DENIED')
  t.match(outcome.message, /permission was denied to this user .* Fix: give this user the folder \(chown -R\)/)
})

t.test('a folder of other files, or a file, is not a store', async (t) => {
  const dir = t.testdir({ 'notes.txt': 'mine', '.hidden': '', 'a-file': 'x' })
  await t.rejects(openNodeStore({ path: dir, network: 'development' }), {
    code: 'NOT_A_STORE',
    message: /holds other files \(a-file, notes\.txt\)\. Fix: give --data a new or empty folder, or the folder of a Weft store$/,
  })
  await t.rejects(openNodeStore({ path: join(dir, 'a-file'), network: 'development' }), {
    code: 'NOT_A_STORE',
    message: /to be a folder for the store, but it is a file/,
  })
  await t.rejects(openNodeStore({ path: join(dir, 'a-file', 'below'), network: 'development' }), {
    code: 'NOT_A_STORE',
    message: /a file is in the way/,
  })
  const hiddenOnly = t.testdir({ '.gitkeep': '', 'lost+found': {} })
  const store = await openNodeStore({ path: hiddenOnly, network: 'development' })
  await store.close()
  t.pass('dot files and lost+found do not make a folder foreign')
})

t.test("another network's store names both networks and the fix", async (t) => {
  const data = t.testdir()
  await (await openStore({ path: data, network: 'development' })).close()
  await t.rejects(openNodeStore({ path: data, network: 'testnet04' }), {
    code: 'STORE_WRONG_NETWORK',
    message: /to hold a store of testnet04, but it holds one of development\. Fix: start with --network development/,
  })
})

t.test("a store in another version's layout is refused with UNSUPPORTED_LAYOUT and left as it was", async (t) => {
  const data = t.testdir()
  await (await openStore({ path: data, network: 'development' })).close()
  const old = new ClassicLevel<Buffer, Buffer>(data, { keyEncoding: 'buffer', valueEncoding: 'buffer' })
  await old.put(Buffer.from('mlayout'), Buffer.from('1'))
  await old.close()
  await t.rejects(openNodeStore({ path: data, network: 'development' }), {
    code: 'UNSUPPORTED_LAYOUT',
    message: /Expected a store of layout 3 in .*, found layout 1: .* fill a new folder from an upstream or a snapshot/,
  })
  const after = new ClassicLevel<Buffer, Buffer>(data, { keyEncoding: 'buffer', valueEncoding: 'buffer' })
  t.equal((await after.get(Buffer.from('mlayout')))?.toString(), '1', 'the layout record is as it was')
  t.ok((await after.keys({ gte: Buffer.from('b'), lt: Buffer.from('c') }).all()).length > 0, 'the blocks are still there')
  await after.close()
})

t.test('a corrupt store names the corruption and the fix', async (t) => {
  const data = t.testdir()
  await (await openStore({ path: data, network: 'development' })).close()
  writeFileSync(join(data, 'CURRENT'), 'garbage')
  await t.rejects(openNodeStore({ path: data, network: 'development' }), {
    code: 'STORE_CORRUPT',
    message:
      /is corrupt \(Corruption: CURRENT file does not end with newline\)\. Fix: stop the node and run weft-server --repair --data on the folder .*, or move the folder aside/,
  })
})

t.test("a failure the store gives no reason for is STORE_UNAVAILABLE, in the store's own words", async (t) => {
  const failed = new StoreOpenError('/d', 'failed', 'IO error: /d/000005.ldb: Input/output error')
  t.match(storeOpenAnswer('/d', 'development', failed), {
    code: 'STORE_UNAVAILABLE',
    message: 'Expected to open the store in /d, but it failed: IO error: /d/000005.ldb: Input/output error',
    cause: failed,
  })
  t.match(storeOpenAnswer('/d', 'development', new TypeError('not a store at all')), {
    code: 'STORE_UNAVAILABLE',
    message: /but it failed: not a store at all$/,
  })
})

// A test-singleton store of three blocks as an earlier Weft left it: without the record of the rules it checked.
async function earlierStore(data: string): Promise<void> {
  const store = await openStore({ path: data, network: 'test-singleton' })
  await store.insertMany(mineLine(store.network, store.cut().get(0)!, 3))
  await store.close()
  const db = new ClassicLevel<Buffer, Buffer>(data, { keyEncoding: 'buffer', valueEncoding: 'buffer' })
  await db.del(Buffer.from('mrules'))
  await db.close()
}

t.test('a store written by an earlier Weft is checked by the rules at start, with progress in the log, then served', async (t) => {
  const data = t.testdir()
  await earlierStore(data)
  const lines: Array<{ msg: string; height?: number; top?: number; blocks?: number }> = []
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) })
  const server = await startServer({ host: '127.0.0.1', port: 0, data, network: 'test-singleton', devnet: false }, logger)
  t.teardown(() => server.close())
  const checked = lines.filter((line) => line.msg.startsWith('checking the stored blocks by the rules of chainweb-node 3.2'))
  t.match(checked.at(-1), { height: 3, top: 3, blocks: 4 }, 'the genesis block and three more')
  t.equal(server.store.cut().get(0)?.height, 3)
})

t.test(
  'a store of an earlier Weft that holds a block the rules refuse is refused with STORE_BREAKS_RULES and left as it was',
  async (t) => {
    const data = t.testdir()
    await earlierStore(data)
    // The block at height 2 gets another target in its stored header (an earlier devnet chose its targets).
    const db = new ClassicLevel<Buffer, Buffer>(data, { keyEncoding: 'buffer', valueEncoding: 'buffer' })
    const at2 = Buffer.concat([Buffer.from('b'), Buffer.from([0, 0, 0, 0]), Buffer.from([0, 0, 0, 0, 0, 0, 0, 2])])
    const [key, record] = (await db.iterator({ gte: at2, lt: Buffer.concat([at2, Buffer.alloc(32, 0xff)]) }).all())[0]!
    // The record: payload hash, three u32s, then the header binary, whose target follows flags, time, parent and 2 bytes of adjacents.
    const targetAt = 32 + 12 + 8 + 8 + 32 + 2
    record![targetAt] = record![targetAt]! ^ 1
    await db.put(key!, record!)
    await db.close()
    await t.rejects(openNodeStore({ path: data, network: 'test-singleton' }), {
      code: 'STORE_BREAKS_RULES',
      message: /\(chain 0, height 2\) breaks INVALID_TARGET .*move the folder away and fill a new one from an upstream or a snapshot/,
    })
    const after = new ClassicLevel<Buffer, Buffer>(data, { keyEncoding: 'buffer', valueEncoding: 'buffer' })
    t.equal(await after.get(Buffer.from('mrules')), undefined, 'no rules recorded')
    await after.close()
  },
)
