import { createHash } from 'node:crypto'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync, gzipSync } from 'node:zlib'
import { genesisBlocks, getNetwork, type Header } from '@weft/block'
import t, { type Test } from 'tap'
import { type ChainStore, importSnapshot, openStore, readSnapshotFile, snapshotFileStream } from '../src/index.js'
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
  const imported = await importSnapshot(once(file), { path, network: 'development', onProgress: (blocks) => progress.push(blocks) })
  t.equal(imported.blocks, before.length)
  t.equal(progress.at(-1), before.length)
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
  // A genesis block is in every new store already, so its alteration is the checksum's to find;
  // any other block's is found as the store refuses it.
  // Alters one block's nonce; with `resign`, the end line gets a fresh checksum over the altered
  // blocks, so that only validation can tell.
  const alter = (line: number, resign: boolean): Buffer => {
    const body = lines
      .slice(0, -2)
      .map((text, index) =>
        index === line ? text.replace(/"nonce":"(\d)/, (_, digit: string) => `"nonce":"${(Number(digit) + 1) % 10}`) : text,
      )
    const bytes = Buffer.from(`${body.join('\n')}\n`)
    const sha256 = resign ? createHash('sha256').update(bytes).digest('hex') : (JSON.parse(lines.at(-2)!) as { sha256: string }).sha256
    return gzipSync(Buffer.concat([bytes, Buffer.from(`{"end":true,"blocks":${body.length - 1},"sha256":"${sha256}"}\n`)]))
  }
  await refuse(alter(2, false), /the checksum does not match/, 'altered')
  await refuse(alter(2, true), /a block is refused: Block .* is invalid: INVALID_BLOCK_HASH/, 'resigned')
  // A block line that is JSON but not a block, under a fresh checksum: only the parse can tell.
  const unreadable = (() => {
    const body = lines.slice(0, -2).map((text, index) => (index === 3 ? '{"header":{"height":1},"payloadWithOutputs":{}}' : text))
    const bytes = Buffer.from(`${body.join('\n')}\n`)
    const sha256 = createHash('sha256').update(bytes).digest('hex')
    return gzipSync(Buffer.concat([bytes, Buffer.from(`{"end":true,"blocks":${body.length - 1},"sha256":"${sha256}"}\n`)]))
  })()
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
  const withoutLine = (line: number): Buffer => {
    const body = lines.slice(0, -2).filter((_, index) => index !== line)
    const bytes = Buffer.from(`${body.join('\n')}\n`)
    const sha256 = createHash('sha256').update(bytes).digest('hex')
    return gzipSync(Buffer.concat([bytes, Buffer.from(`{"end":true,"blocks":${body.length - 1},"sha256":"${sha256}"}\n`)]))
  }
  await refuse(withoutLine(2), /a block is refused: Expected the parent .* to be stored/, 'parentless')
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

t.test('an import refuses a folder that holds files, and takes an empty one', async (t) => {
  const store = await filledStore(t)
  const file = await bytesOf(snapshotFileStream(store.snapshot()))
  const full = t.testdir({ full: { keep: 'me' }, empty: {} })
  await t.rejects(importSnapshot(once(file), { path: join(full, 'full') }), { code: 'SNAPSHOT_TARGET_EXISTS', name: 'SnapshotTargetError' })
  t.ok(existsSync(join(full, 'full', 'keep')))
  const imported = await importSnapshot(once(file), { path: join(full, 'empty') })
  t.equal(imported.network, 'development')
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
  const snapshot = store.snapshot()
  const stream = snapshotFileStream(snapshot)
  for await (const _ of stream) break
  await snapshot.close()
  await snapshot.close()
  t.ok(stream.destroyed)
})
