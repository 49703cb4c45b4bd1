import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync, gzipSync } from 'node:zlib'
import { genesisBlocks, getNetwork, type Header, MAX_U256, mineChildHeader } from '@weft/block'
import { decodeHash } from '@weft/hash-text'
import t, { type Test } from 'tap'
import {
  type ChainStore,
  importSnapshot,
  maxSnapshotLineBytes,
  openStore,
  readSnapshotFile,
  type StoreSnapshot,
  snapshotFileStream,
} from '../src/index.js'
import { openImportStore } from '../src/open-store.js'
import { makePayload, mineBraid } from '../src/suite/chain-miner.js'

const development = getNetwork('development')
const genesisTips = (): Map<number, Header> => new Map(genesisBlocks(development).map((block) => [block.header.chainId, block.header]))

async function bytesOf(stream: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(chunk)
  return Buffer.concat(chunks)
}

async function* once(bytes: Buffer): AsyncGenerator<Buffer> {
  yield bytes
}

// A snapshot file of the header and block lines given, its end line counted and checksummed anew.
function fileOf(lines: readonly string[]): Buffer {
  const bytes = Buffer.from(`${lines.join('\n')}\n`)
  const sha256 = createHash('sha256').update(bytes).digest('hex')
  return gzipSync(Buffer.concat([bytes, Buffer.from(`{"end":true,"blocks":${lines.length - 1},"sha256":"${sha256}"}\n`)]))
}

async function pages(store: ChainStore): Promise<string[]> {
  const all: string[] = []
  for (const chain of [...store.heads().keys()].sort((a, b) => a - b)) {
    const items = []
    for await (const item of store.range({ chain })) items.push(item)
    all.push(...(await store.readRangeBlocks(items)).map(String))
  }
  return all
}

// A store with braided blocks on every chain and a few orphans.
async function filledStore(t: Test): Promise<ChainStore> {
  const store = await openStore({ path: join(t.testdir(), 'source'), network: 'development' })
  t.teardown(() => store.close())
  const lower = mineBraid(development, genesisTips(), 4, { payload: makePayload('snapshot', 1) })
  const upper = mineBraid(development, lower.tips, 6, { payload: makePayload('snapshot', 1) })
  await store.insertMany([...lower.blocks, ...upper.blocks])
  // A sibling of chain 3's block at 5, braided like it: an orphan or the head, whichever hash is lower.
  const sibling = mineBraid(development, lower.tips, 5, { payload: makePayload('sibling') }).blocks.find(
    (block) => block.header.chainId === 3,
  )!
  await store.insert(sibling)
  return store
}

t.test('a snapshot taken while blocks keep coming imports as the store of that moment, its cut adopted', async (t) => {
  const store = await filledStore(t)
  const before = await pages(store)
  const cut = new Map(store.cut())
  const stream = snapshotFileStream(store.snapshot())
  // Blocks written after the snapshot was taken are not in it.
  const more = mineBraid(development, new Map(store.heads()), 8, { payload: makePayload('later') })
  await store.insertMany(more.blocks)
  const file = await bytesOf(stream)
  const path = join(t.testdir(), 'imported')
  const progress: number[] = []
  const checked: number[] = []
  const imported = await importSnapshot(once(file), {
    path,
    network: 'development',
    onProgress: (blocks) => progress.push(blocks),
    onRulesCheck: ({ blocks }) => checked.push(blocks),
  })
  t.equal(imported.blocks, before.length)
  t.equal(progress.at(-1), before.length)
  t.equal(checked.at(-1), before.length, 'the last step told how far its check of every rule went: every block')
  const copy = await openStore({ path, network: 'development', cutPolicy: 'adopted' })
  t.teardown(() => copy.close())
  t.same(await pages(copy), before, 'the same blocks, byte for byte, orphans included')
  t.same(
    [...copy.cut()].map(([chain, head]) => [chain, head.hash.toString('hex')]),
    [...cut].map(([chain, head]) => [chain, head.hash.toString('hex')]),
  )
  t.same(
    readdirSync(join(path, '..')).filter((name) => name.includes('importing')),
    [],
    'no temporary folder is left',
  )
})

t.test('a cut-short, altered or foreign file is refused with INVALID_SNAPSHOT and leaves no store behind', async (t) => {
  const store = await filledStore(t)
  const file = await bytesOf(snapshotFileStream(store.snapshot()))
  const content = gunzipSync(file)
  const lines = content.toString().split('\n')
  const refuse = async (bytes: Buffer, message: RegExp, name: string): Promise<void> => {
    const path = join(t.testdir(), name)
    await t.rejects(importSnapshot(once(bytes), { path }), { code: 'INVALID_SNAPSHOT', name: 'InvalidSnapshotError', message }, name)
    t.notOk(existsSync(path), `${name}: no store`)
    t.same(
      readdirSync(join(path, '..')).filter((entry) => entry.startsWith(`${name}.importing`)),
      [],
      `${name}: nothing left`,
    )
  }
  await refuse(file.subarray(0, file.length - 20), /cannot be read as gzip|cut short/, 'truncated-gzip')
  await refuse(gzipSync(Buffer.from(lines.slice(0, -3).join('\n'))), /cut short/, 'truncated-lines')
  // Alters one block's nonce; with `resign`, the end line gets a fresh checksum over the altered
  // blocks, so that only validation can tell: also for a genesis block, which every new store holds
  // already (a text that names a stored block must still be that block).
  const alter = (line: number, resign: boolean): Buffer => {
    const body = lines
      .slice(0, -2)
      .map((text, index) =>
        index === line ? text.replace(/"nonce":"(\d)/, (_, digit: string) => `"nonce":"${(Number(digit) + 1) % 10}`) : text,
      )
    if (resign) return fileOf(body)
    const { sha256 } = JSON.parse(lines.at(-2)!) as { sha256: string }
    return gzipSync(Buffer.from(`${body.join('\n')}\n{"end":true,"blocks":${body.length - 1},"sha256":"${sha256}"}\n`))
  }
  await refuse(alter(2, false), /the checksum does not match/, 'altered')
  await refuse(alter(2, true), /a block is refused: Block .* is invalid: INVALID_BLOCK_HASH/, 'resigned')
  t.match(JSON.parse(lines[1]!), { header: { height: 0 } }, 'the first block line is a genesis block')
  await refuse(alter(1, true), /a block is refused: Block .* is invalid: INVALID_BLOCK_HASH/, 'resigned-genesis')
  // A block line that is JSON but not a block, under a fresh checksum: only the parse can tell.
  const unreadable = fileOf(
    lines.slice(0, -2).map((text, index) => (index === 3 ? '{"header":{"height":1},"payloadWithOutputs":{}}' : text)),
  )
  await refuse(unreadable, /one of blocks 1 to \d+ cannot be read: Expected text 3 of the call to be a full block/, 'unreadable')
  const flipped = Buffer.from(file)
  const middle = Math.floor(file.length / 2)
  flipped[middle] = flipped[middle]! ^ 0xff
  await refuse(flipped, /gzip|checksum|altered|JSON/, 'flipped-byte')
  await refuse(
    gzipSync(Buffer.from(`${lines.slice(0, -2).join('\n')}\n{"end":true,"blocks":1,"sha256":"00"}\n`)),
    /counts 1 blocks/,
    'count',
  )
  await refuse(
    gzipSync(Buffer.from(`${lines.slice(0, -2).join('\n')}\n{"end":true,"blocks":${lines.length - 3},"sha256":"00"}\n`)),
    /altered/,
    'checksum',
  )
  await refuse(gzipSync(Buffer.from(`${lines.join('\n')}extra\n`)), /follows the end line/, 'trailing')
  await refuse(gzipSync(Buffer.from(`${lines.join('\n')}extra`)), /follows the end line/, 'trailing-unended')
  // A snapshot without one block, its checksum made anew: the block's children lack their parent.
  await refuse(
    fileOf(lines.slice(0, -2).filter((_, index) => index !== 2)),
    /a block is refused: Expected the parent .* to be stored/,
    'parentless',
  )
  // A header whose network or cut is not one, and a cut of a block the file does not hold.
  const header = JSON.parse(lines[0]!) as { network: string; cut: Record<string, string> }
  const withHeader = (changed: object): Buffer => fileOf([JSON.stringify({ ...header, ...changed }), ...lines.slice(1, -2)])
  await refuse(withHeader({ network: 'mainnet02' }), /names the network "mainnet02", which this Weft does not know/, 'network')
  await refuse(
    withHeader({ cut: { ...header.cut, 0: 'not-a-hash' } }),
    /its cut names "0": "not-a-hash", not a chain and a block hash/,
    'cut-hash',
  )
  await refuse(withHeader({ cut: { ...header.cut, '-1': header.cut['0'] } }), /its cut names "-1"/, 'cut-chain')
  await refuse(withHeader({ cut: [] }), /lacks the network or the cut/, 'cut-array')
  const absent = Buffer.alloc(32, 7).toString('base64url')
  await refuse(
    withHeader({ cut: { ...header.cut, 0: absent } }),
    /its cut cannot be adopted: .*the head \S+ of chain 0 is not stored/,
    'cut-absent',
  )
  await refuse(gzipSync(Buffer.from('{"format":"other"}\n')), /does not name the weft-snapshot format/, 'format')
  await refuse(gzipSync(Buffer.from('{"format":"weft-snapshot","version":9}\n')), /version 9/, 'version')
  await refuse(gzipSync(Buffer.from('{"format":"weft-snapshot","version":1}\n')), /lacks the network/, 'header')
  await refuse(gzipSync(Buffer.from('not json\n')), /not a JSON object/, 'json')
  await refuse(gzipSync(Buffer.from(`${lines[0]}\n{"end":1}\n`)), /lacks the block count/, 'end-line')
  await refuse(gzipSync(Buffer.alloc(0)), /empty/, 'empty')
  await refuse(Buffer.from('plain text'), /gzip/, 'not-gzip')
  await t.rejects(importSnapshot(once(file), { path: join(t.testdir(), 'mainnet'), network: 'mainnet01' }), {
    code: 'INVALID_SNAPSHOT',
    message: /a snapshot of development, expected mainnet01/,
  })
})

t.test('an import refuses a folder that holds files or a file, and takes a missing, an empty or a mounted one', async (t) => {
  const store = await filledStore(t)
  const file = await bytesOf(snapshotFileStream(store.snapshot()))
  const root = t.testdir({
    full: { keep: 'me', a: '', b: '', c: '' },
    empty: {},
    mounted: { 'lost+found': {} },
    downloading: { '.download': { 'snapshot.part': 'bytes' } },
    stopped: { '.importing-0a1b2c3d': {} },
    plain: 'x',
  })
  await t.rejects(importSnapshot(once(file), { path: join(root, 'full') }), {
    code: 'SNAPSHOT_TARGET_EXISTS',
    name: 'SnapshotTargetError',
    message: /full to be missing or empty for a new store, but it holds a, b, c, …$/,
  })
  t.ok(existsSync(join(root, 'full', 'keep')))
  await t.rejects(importSnapshot(once(file), { path: join(root, 'plain') }), {
    code: 'SNAPSHOT_TARGET_EXISTS',
    message: /but it is a file$/,
  })
  await t.rejects(importSnapshot(once(file), { path: join(root, 'stopped') }), {
    code: 'SNAPSHOT_TARGET_EXISTS',
    message: /it holds \.importing-0a1b2c3d: an import into it is running, or one stopped/,
  })
  // The file system's lost+found is not content (a mount point has one); a trailing slash names the same folder.
  for (const name of ['empty', 'mounted/', 'missing/below']) {
    const imported = await importSnapshot(once(file), { path: join(root, name) })
    t.equal(imported.network, 'development', name)
    const copy = await openStore({ path: join(root, name), network: 'development', cutPolicy: 'adopted' })
    t.same(await pages(copy), await pages(store), `${name}: the blocks are all there`)
    await copy.close()
    t.same(
      readdirSync(join(root, name)).filter((entry) => entry.startsWith('.importing')),
      [],
      `${name}: no work folder is left`,
    )
  }
  t.ok(existsSync(join(root, 'mounted', 'lost+found')), 'lost+found stays')
  // What the caller names in `keep` is not in the way, and is left as it was.
  await t.rejects(importSnapshot(once(file), { path: join(root, 'downloading') }), {
    code: 'SNAPSHOT_TARGET_EXISTS',
    message: /holds \.download$/,
  })
  const kept = await importSnapshot(once(file), { path: join(root, 'downloading'), keep: ['.download'] })
  t.equal(kept.blocks, (await pages(store)).length, 'imported beside the kept folder')
  t.equal(readFileSync(join(root, 'downloading', '.download', 'snapshot.part'), 'utf8'), 'bytes', 'the kept folder is untouched')
})

t.test('an import moves its store in beside what was put in the folder meanwhile, and touches none of it', async (t) => {
  const store = await filledStore(t)
  const file = await bytesOf(snapshotFileStream(store.snapshot()))
  const path = join(t.testdir(), 'target')
  const imported = await importSnapshot(once(file), { path, onProgress: () => writeFileSync(join(path, 'notes.txt'), 'mine') })
  t.ok(imported.blocks > 0)
  t.equal(readFileSync(join(path, 'notes.txt'), 'utf8'), 'mine')
  const copy = await openStore({ path, network: 'development', cutPolicy: 'adopted' })
  t.teardown(() => copy.close())
  t.same(await pages(copy), await pages(store))
})

t.test('an import stopped by its signal, or whose input fails, leaves nothing behind and closes the input', async (t) => {
  const store = await openStore({ path: join(t.testdir(), 'source'), network: 'development' })
  t.teardown(() => store.close())
  await store.insertMany(mineBraid(development, genesisTips(), 60, { payload: makePayload('stopped', 4) }).blocks)
  const file = await bytesOf(snapshotFileStream(store.snapshot()))
  // The file in small pieces, failing after `failAfter` of them when asked; tells when it was closed.
  const pieces = (failAfter = Number.POSITIVE_INFINITY) => {
    const state = { closed: false }
    async function* read(): AsyncGenerator<Buffer> {
      try {
        for (let at = 0, count = 0; at < file.length; at += 4096, count++) {
          if (count === failAfter) throw Object.assign(new Error('the disk failed'), { code: 'EIO' })
          yield file.subarray(at, at + 4096)
        }
      } finally {
        state.closed = true
      }
    }
    return { state, input: read() }
  }
  const root = t.testdir()
  const controller = new AbortController()
  const stopped = pieces()
  await t.rejects(
    importSnapshot(stopped.input, { path: join(root, 'stopped'), signal: controller.signal, onProgress: () => controller.abort() }),
    { name: 'AbortError' },
  )
  t.ok(stopped.state.closed, 'stopped: the input is closed')
  // A folder the import made stays when something else was put in it meanwhile: that is not the import's.
  const shared = new AbortController()
  const sharedPath = join(root, 'shared')
  const onProgress = (): void => {
    writeFileSync(join(sharedPath, 'notes.txt'), 'mine')
    shared.abort()
  }
  await t.rejects(importSnapshot(pieces().input, { path: sharedPath, signal: shared.signal, onProgress }), { name: 'AbortError' })
  t.same(readdirSync(sharedPath), ['notes.txt'], 'only what was put there is left')
  rmSync(sharedPath, { recursive: true })
  const failing = pieces(3)
  await t.rejects(importSnapshot(failing.input, { path: join(root, 'failing') }), { code: 'EIO', message: 'the disk failed' })
  t.ok(failing.state.closed, 'failed: the input is closed')
  const early = pieces()
  await t.rejects(importSnapshot(early.input, { path: join(root, 'early'), network: 'mainnet01' }), { code: 'INVALID_SNAPSHOT' })
  // The input is closed as the read is torn down, a moment after the refusal.
  for (let waited = 0; !early.state.closed && waited < 100; waited++) await new Promise((resolve) => setTimeout(resolve, 10))
  t.ok(early.state.closed, 'refused at its first line: the input is closed')
  t.same(readdirSync(root), [], 'no folder is left')
})

t.test('a line that does not end is refused before it fills the memory', async (t) => {
  const header = '{"format":"weft-snapshot","version":1,"network":"development","cut":{}}\n'
  const endless = gzipSync(Buffer.concat([Buffer.from(header), Buffer.alloc(maxSnapshotLineBytes + 1, 0x20)]))
  const path = join(t.testdir(), 'endless')
  await t.rejects(importSnapshot(once(endless), { path }), { code: 'INVALID_SNAPSHOT', message: /a line runs past 64 MiB without ending/ })
  t.notOk(existsSync(path))
})

t.test('a snapshot of more blocks than one gzip chunk or one insert holds comes in order and imports whole', async (t) => {
  const store = await openStore({ path: join(t.testdir(), 'source'), network: 'development' })
  t.teardown(() => store.close())
  await store.insertMany(mineBraid(development, genesisTips(), 60, { payload: makePayload('many', 4) }).blocks)
  const file = await bytesOf(snapshotFileStream(store.snapshot()))
  const kinds: string[] = []
  for await (const part of readSnapshotFile(once(file))) kinds.push(part.kind)
  t.equal(kinds[0], 'header')
  t.equal(kinds.at(-1), 'end')
  t.equal(kinds.length, 2 + 20 * 61)
  t.ok(kinds.slice(1, -1).every((kind) => kind === 'block'))
  const imported = await importSnapshot(once(file), { path: join(t.testdir(), 'copy') })
  t.equal(imported.blocks, 20 * 61)
})

t.test('a snapshot stream destroyed half way releases its view; a view closes once', async (t) => {
  const store = await openStore({ path: t.testdir(), network: 'development' })
  t.teardown(() => store.close())
  await store.insertMany(mineBraid(development, genesisTips(), 40, { payload: makePayload('destroyed', 4) }).blocks)
  const view = store.snapshot()
  let closes = 0
  const observed: StoreSnapshot = {
    ...view,
    blocks: () => view.blocks(),
    close: () => {
      closes++
      return view.close()
    },
  }
  const stream = snapshotFileStream(observed)
  for await (const _ of stream) break
  t.ok(stream.destroyed)
  for (let waited = 0; closes === 0 && waited < 100; waited++) await new Promise((resolve) => setTimeout(resolve, 10))
  t.equal(closes, 1, 'the stream released the view')
  await view.close()
  await view.close()
  t.pass('a view closes once, however often it is asked')
})

t.test('a snapshot holding a block that breaks a rule (hashes and proof of work intact) is refused with INVALID_SNAPSHOT', async (t) => {
  // An import store takes the block (it checks hashes and parent links), so it can be snapshotted.
  const singleton = getNetwork('test-singleton')
  const source = await openImportStore({ path: join(t.testdir(), 'source'), network: 'test-singleton' })
  t.teardown(() => source.close())
  const parent = genesisBlocks(singleton)[0]!.header
  const payload = makePayload('cheap')
  const header = mineChildHeader(parent, {
    creationTime: parent.creationTime + 1,
    target: MAX_U256,
    payloadHash: decodeHash(payload.payloadHash),
  })
  await source.insert({ header, payload })
  const file = await bytesOf(snapshotFileStream(source.snapshot()))
  const path = join(t.testdir(), 'imported')
  await t.rejects(importSnapshot(once(file), { path }), {
    code: 'INVALID_SNAPSHOT',
    message: /a block is refused: .*breaks INVALID_TARGET/,
  })
  t.notOk(existsSync(path), 'no store')
})
