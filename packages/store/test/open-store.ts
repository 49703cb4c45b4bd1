import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { genesisBlock, genesisBlocks, getNetwork } from '@weft/block'
import { ClassicLevel } from 'classic-level'
import t from 'tap'
import { openStore } from '../src/index.js'
import { blockKey, hashIndexKey, headKey, metaKey } from '../src/keys.js'
import { adoptedCutKey } from '../src/node-cut.js'
import { mineBraid, mineLine, mineValidChild } from '../src/suite/chain-miner.js'
import { editFolder, open } from './fixtures/level.js'

const development = getNetwork('development')
const singleton = getNetwork('test-singleton')
const text = (hash: Uint8Array): string => Buffer.from(hash).toString('base64url')
const genesis0 = () => genesisBlock(development, 0).header

t.test('a fresh mainnet01 store starts with the real genesis blocks of the vectors, chains 10-19 at height 852054', async (t) => {
  const store = await open(t, 'mainnet01')
  const vectors = JSON.parse(readFileSync(new URL('../../../fixtures/vectors/genesis-mainnet01.json', import.meta.url), 'utf8')) as Array<{
    header: { hash: string; chainId: number; height: number }
  }>
  t.equal(store.heads().size, 20)
  for (const vector of vectors) {
    const head = store.heads().get(vector.header.chainId)
    t.equal(head && text(head.hash), vector.header.hash)
    t.equal(head?.height, vector.header.height)
  }
  t.equal(store.heads().get(10)?.height, 852054)
  t.same([...store.cut().keys()], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 'the genesis cut: chains 10-19 join at the transition')
})

t.test('the cut survives a reopen', async (t) => {
  const path = t.testdir()
  const store = await openStore({ path, network: 'test-singleton' })
  const line = mineLine(singleton, genesisBlock(singleton, 0).header, 3)
  await store.insertMany(line)
  await store.close()
  const reopened = await open(t, 'test-singleton', path)
  t.same(reopened.cut().get(0), line[2]!.header)
})

t.test('a folder keeps its network: opening it as another is NETWORK_MISMATCH', async (t) => {
  const path = t.testdir()
  await (await openStore({ path, network: 'development' })).close()
  await t.rejects(openStore({ path, network: 'test-singleton' }), {
    code: 'NETWORK_MISMATCH',
    name: 'NetworkMismatchError',
    expected: 'test-singleton',
    found: 'development',
  })
  // The refused open closed the database again, so the right network still opens.
  const store = await open(t, 'development', path)
  t.equal(store.cut().size, 20)
})

t.test('a folder held by another open store is STORE_OPEN_FAILED, for the reason locked', async (t) => {
  const path = t.testdir()
  await open(t, 'development', path)
  await t.rejects(openStore({ path, network: 'development' }), {
    code: 'STORE_OPEN_FAILED',
    name: 'StoreOpenError',
    reason: 'locked',
    detail: /lock/,
  })
})

t.test('a file where the folder or one above it should be is STORE_OPEN_FAILED, for the reason not-a-folder', async (t) => {
  const dir = t.testdir({ 'a-file': 'x' })
  for (const path of [join(dir, 'a-file'), join(dir, 'a-file', 'below')])
    await t.rejects(openStore({ path, network: 'development' }), {
      code: 'STORE_OPEN_FAILED',
      reason: 'not-a-folder',
      detail: /EEXIST|ENOTDIR/,
    })
})

t.test('a folder LevelDB finds corrupt is STORE_OPEN_FAILED, for the reason corrupt, on the open or on its first reads', async (t) => {
  const path = t.testdir()
  await (await openStore({ path, network: 'development' })).close()
  // Opened and closed once more, LevelDB moves its log into a table file: the meta records are then read from tables.
  await editFolder(path, async () => {})
  const tables = readdirSync(path).filter((name) => name.endsWith('.ldb'))
  t.ok(tables.length > 0, 'the records are in table files')
  for (const name of tables) {
    const bytes = readFileSync(join(path, name))
    for (let at = 100; at < bytes.length - 100; at += 50) bytes[at] = bytes[at]! ^ 0xff
    writeFileSync(join(path, name), bytes)
  }
  await t.rejects(openStore({ path, network: 'development' }), { code: 'STORE_OPEN_FAILED', reason: 'corrupt', detail: /^Corruption: / })
  writeFileSync(join(path, 'CURRENT'), 'garbage')
  await t.rejects(openStore({ path, network: 'development' }), {
    code: 'STORE_OPEN_FAILED',
    reason: 'corrupt',
    detail: 'Corruption: CURRENT file does not end with newline',
  })
})

t.test('genesis blocks missing from an existing folder are put back on open', async (t) => {
  const path = t.testdir()
  await (await openStore({ path, network: 'development' })).close()
  const g = genesisBlock(development, 3).header
  await editFolder(path, (db) =>
    db.batch([
      { type: 'del', key: blockKey(3, 0, g.hash) },
      { type: 'del', key: hashIndexKey(g.hash) },
      { type: 'del', key: headKey(3) },
    ]),
  )
  const store = await open(t, 'development', path)
  t.same(await store.getHeader(g.hash), g)
  t.same(store.cut().get(3), g)
})

t.test('a best head without its block record makes open fail with CORRUPT_STORE', async (t) => {
  const path = t.testdir()
  const store = await openStore({ path, network: 'test-singleton' })
  const [a] = mineLine(singleton, genesisBlock(singleton, 0).header, 1)
  await store.insert(a!)
  await store.close()
  await editFolder(path, (db) => db.del(hashIndexKey(a!.header.hash)))
  await t.rejects(openStore({ path, network: 'test-singleton' }), { code: 'CORRUPT_STORE', message: /best head/ })
})

t.test('an adopted cut survives a reopen; a new adopted store keeps the genesis cut until it adopts one', async (t) => {
  const path = t.testdir()
  const first = await openStore({ path, network: 'development', cutPolicy: 'adopted' })
  const { blocks, tips } = mineBraid(development, new Map(genesisBlocks(development).map((b) => [b.header.chainId, b.header])), 2)
  await first.insertMany(blocks)
  t.same(first.cut().get(0), genesis0(), 'nothing adopted yet: the genesis cut')
  await first.close()
  const restarted = await openStore({ path, network: 'development', cutPolicy: 'adopted' })
  t.same(restarted.cut().get(0), genesis0(), 'still nothing adopted after a restart: still the genesis cut')
  await restarted.adoptCut(new Map([...tips].map(([chain, tip]) => [chain, tip.hash])))
  await restarted.close()
  const reopened = await openStore({ path, network: 'development', cutPolicy: 'adopted' })
  t.teardown(() => reopened.close())
  t.same(reopened.cut().get(0), tips.get(0))
  t.equal(reopened.cut().size, 20)
})

t.test('a new adopted store of a network that starts with ten chains stands on their genesis cut, across a reopen', async (t) => {
  for (const network of ['mainnet01', 'recap-development'] as const) {
    const path = join(t.testdir(), network)
    const store = await openStore({ path, network, cutPolicy: 'adopted' })
    t.equal(store.cut().size, 10, `${network}: ten chains`)
    await store.close()
    const reopened = await openStore({ path, network, cutPolicy: 'adopted' })
    t.same([...reopened.cut().keys()], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], `${network}: the same cut after a reopen`)
    await reopened.close()
  }
})

t.test('a fork-choice store opened with the adopted policy stands on its heads until it adopts a cut', async (t) => {
  const path = t.testdir()
  const first = await openStore({ path, network: 'development' })
  const { blocks, tips } = mineBraid(development, new Map(genesisBlocks(development).map((b) => [b.header.chainId, b.header])), 2)
  await first.insertMany(blocks)
  await first.close()
  const adopted = await openStore({ path, network: 'development', cutPolicy: 'adopted' })
  t.teardown(() => adopted.close())
  t.same(adopted.cut().get(0), tips.get(0), 'the cut its heads give')
})

t.test('an adopted cut record that is cut short or names a missing head makes open fail with CORRUPT_STORE', async (t) => {
  const path = t.testdir()
  await (await openStore({ path, network: 'development', cutPolicy: 'adopted' })).close()
  await editFolder(path, (db) => db.put(adoptedCutKey, Buffer.alloc(37)))
  await t.rejects(openStore({ path, network: 'development', cutPolicy: 'adopted' }), { code: 'CORRUPT_STORE', message: /multiple of 36/ })
  await editFolder(path, (db) => db.put(adoptedCutKey, Buffer.alloc(36, 7)))
  await t.rejects(openStore({ path, network: 'development', cutPolicy: 'adopted' }), { code: 'CORRUPT_STORE', message: /adopted head/ })
  const forkChoice = await openStore({ path, network: 'development' })
  t.equal(forkChoice.cut().size, 20, 'a fork-choice store ignores the record')
  await forkChoice.close()
})

t.test('mineBraid and mineValidChild refuse to mine a chain whose neighbours they were not given', async (t) => {
  const tips = new Map([[0, genesis0()]])
  t.throws(() => mineBraid(development, tips, 1), /Expected chain 5 to have a block at 0 for chain 0/)
  // Above genesis a child's neighbours are not the genesis blocks: mineValidChild wants them given.
  const [first] = mineBraid(development, new Map(genesisBlocks(development).map((b) => [b.header.chainId, b.header])), 1).blocks
  t.throws(() => mineValidChild(development, first!.header), /Expected adjacentParents for a child of chain 0 at 2: mine a braid instead/)
})

t.test('with syncWrites every write asks LevelDB to flush it before it counts, and reads back the same', async (t) => {
  const folder = t.testdir()
  // What each write of the process asks of LevelDB: classic-level's own write calls, watched (a
  // flush cannot be seen from outside short of a power loss).
  const probe = new ClassicLevel(join(folder, 'probe'))
  await probe.open()
  const chained = Object.getPrototypeOf(probe.batch()) as { _write(options: { sync?: boolean }): Promise<void> }
  await probe.close()
  const level = ClassicLevel.prototype as unknown as { _batch(operations: unknown, options: { sync?: boolean }): Promise<void> }
  const [write, batch] = [chained._write, level._batch]
  const syncs: boolean[] = []
  chained._write = function (this: unknown, options) {
    syncs.push(options.sync === true)
    return write.call(this, options)
  }
  level._batch = function (this: unknown, operations, options) {
    syncs.push(options.sync === true)
    return batch.call(this, operations, options)
  }
  t.teardown(() => {
    chained._write = write
    level._batch = batch
  })
  const written = async (syncWrites: boolean, path: string): Promise<boolean[]> => {
    syncs.length = 0
    const store = await openStore({ path, network: 'test-singleton', syncWrites, cutPolicy: 'adopted' })
    t.equal(await store.insertMany(mineLine(singleton, genesisBlock(singleton, 0).header, 300)), 300)
    await store.adoptCut(new Map([...store.heads()].map(([chain, head]) => [chain, head.hash])))
    await store.close()
    return [...syncs]
  }
  const flushed = await written(true, join(folder, 'flushed'))
  t.ok(flushed.length >= 4 && flushed.every(Boolean), `with syncWrites, all ${flushed.length} writes are flushed`)
  const buffered = await written(false, join(folder, 'buffered'))
  t.ok(buffered.length >= 4 && !buffered.some(Boolean), 'without it, none is')
  const reopened = await openStore({ path: join(folder, 'flushed'), network: 'test-singleton', cutPolicy: 'adopted' })
  t.teardown(() => reopened.close())
  t.equal(reopened.cut().get(0)?.height, 300)
})

t.test('a store written in another layout is refused with UNSUPPORTED_LAYOUT, and one without a layout record too', async (t) => {
  const path = t.testdir()
  await (await openStore({ path, network: 'development' })).close()
  await editFolder(path, (db) => db.put(metaKey('layout'), Buffer.from('1')))
  await t.rejects(openStore({ path, network: 'development' }), {
    code: 'UNSUPPORTED_LAYOUT',
    name: 'UnsupportedLayoutError',
    message: /Expected a store of layout 3 in .*, found layout 1: it was written by another version of Weft/,
  })
  await editFolder(path, (db) => db.del(metaKey('layout')))
  await t.rejects(openStore({ path, network: 'development' }), { code: 'UNSUPPORTED_LAYOUT', message: /found layout none/ })
})
