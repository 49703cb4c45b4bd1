import { spawn } from 'node:child_process'
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type Block, blockFromJsonText, encodeHeader, type Header, headerToJsonText } from '@weft/block'
import { fill } from '@weft/devnet'
import { type ChainStore, openStore } from '@weft/store'
import t, { type Test } from 'tap'
import { replayFolder } from '../src/check-vectors.js'

// The replay of `pnpm vectors:check` on data the repository makes itself: development blocks mined
// by the devnet, written in the real files' formats (never the shared files). Development's first
// epochs are 12 blocks long, so layers 9-15 cross the epoch start at 12 on every chain.
const root = fileURLToPath(new URL('../../../', import.meta.url))
const LAYER_FILE = 'zk-light-clients/mainnet-layers-5160237-5160243.json'
const TARGET_AT = 8 + 8 + 32 + 2 + 3 * 36

async function winningBlocks(store: ChainStore): Promise<Map<string, Block>> {
  const blocks = new Map<string, Block>()
  for (const chain of store.cut().keys()) {
    const items = []
    for await (const item of store.range({ chain })) items.push(item)
    for (const json of await store.readRangeBlocks(items)) {
      const block = blockFromJsonText(json)
      blocks.set(`${chain}:${block.header.height}`, block)
    }
  }
  return blocks
}

// A folder of real-format files holding devnet blocks: seven layers, a chain-0 page with its payloads, and triples.
async function madeFolder(t: Test, dir: string): Promise<string> {
  const store = await openStore({ path: join(dir, 'store'), network: 'development' })
  t.teardown(() => store.close())
  await fill(store, { blocks: 20 * 16, seed: 'replay' })
  const at = await winningBlocks(store)
  const block = (chain: number, height: number): Block => at.get(`${chain}:${height}`)!
  const folder = join(dir, 'real')
  const write = (file: string, value: unknown): void => {
    mkdirSync(join(folder, file, '..'), { recursive: true })
    writeFileSync(join(folder, file), typeof value === 'string' ? value : JSON.stringify(value))
  }
  const binary = (h: Header): string => encodeHeader(h).toString('base64url')
  const layers = [9, 10, 11, 12, 13, 14, 15].map((height) => ({
    height,
    headers: Array.from({ length: 20 }, (_, chain) => ({ binary: binary(block(chain, height).header) })),
  }))
  write(LAYER_FILE, { source: 'devnet', network: 'development', layers })
  // A descending page of chain 0, as the node writes header objects, and the payloads of its blocks.
  const run = Array.from({ length: 15 }, (_, i) => block(0, 15 - i))
  write(
    'kadena-js/header-branch-page1-3306636-3306277.json',
    `{"limit":15,"items":[${run.map((b) => headerToJsonText(b.header, 'chainweb')).join(',')}],"next":null}`,
  )
  write('kadena-js/payloads-with-outputs-3306537-3306636.json', run.map((b) => b.payload).reverse())
  const triple = (chain: number, height: number) => {
    const header = block(chain, height).header
    return {
      header: binary(header),
      parent: binary(block(chain, height - 1).header),
      adjacents: header.adjacents.map(([c]) => binary(block(c, height - 1).header)),
    }
  }
  write('chainweb-node/validation-test-headers.json', { testHeaders: [triple(3, 12), triple(7, 14)], testnet04InvalidPairs: [] })
  return folder
}

// The folder with one byte of one target changed: the block at the epoch start on chain 5.
function withChangedTarget(folder: string): void {
  const path = join(folder, LAYER_FILE)
  const data = JSON.parse(readFileSync(path, 'utf8')) as { layers: Array<{ height: number; headers: Array<{ binary: string }> }> }
  const entry = data.layers.find((layer) => layer.height === 12)!.headers[5]!
  const bytes = Buffer.from(entry.binary, 'base64url')
  bytes[TARGET_AT + 20] = bytes[TARGET_AT + 20]! ^ 0x10
  entry.binary = bytes.toString('base64url')
  writeFileSync(path, JSON.stringify(data))
}

t.test('devnet blocks in the real files formats replay: hashes, encodings, links, the new targets, payloads', async (t) => {
  const folder = await madeFolder(t, t.testdir())
  const { lines, failed } = replayFolder(folder)
  t.equal(failed, false, lines.join('\n'))
  t.match(lines.join('\n'), /real: replayed 4 files/)
  t.ok(lines.includes('real: 120 headers validated in full against the layer below (braiding included)'), lines.join('\n'))
  t.ok(lines.includes('real: 20 new targets recomputed exactly at the epoch start of height 12'), 'every chain adjusts at 12')
  t.ok(lines.includes('real: 14 parent links followed (height, weight, epoch start)'))
  t.ok(lines.includes("real: 1 epoch starts in runs without adjacent parents (epoch start = the parent's creation time)"))
  t.ok(lines.includes('real: 15 payloads whose three hashes recompute'))
  t.ok(lines.includes('real: 2 headers validated with their parent and adjacent parents (the node test triples)'))
  t.ok(lines.includes('real: every header, payload and cut keeps the rules'))

  withChangedTarget(folder)
  const changed = replayFolder(folder)
  t.equal(changed.failed, true, 'one byte of a target changed fails the replay')
  const failures = changed.lines.filter((line) => line.startsWith('real: FAILED'))
  t.match(failures.join('\n'), /chain 5 at 12 .*the hash does not recompute/)
  t.match(failures.join('\n'), /chain 5 at 12 .*INVALID_TARGET/)
  t.match(failures.join('\n'), /chain 5 at 12 .*the new target does not recompute/)
})

t.test('a folder without real data is skipped, and said so', async (t) => {
  t.same(replayFolder(t.testdir()), { lines: [`real: no real block data in ${t.testdirName}; skipped the replay`], failed: false })
})

t.test('`pnpm vectors:check` exits 1 when one byte of a target is changed in a copy of the data, 0 before', async (t) => {
  const dir = t.testdir()
  const folder = await madeFolder(t, dir)
  // The shared vectors' layout: the repository's copies at its top, the real data below.
  const shared = join(dir, 'vectors')
  cpSync(join(root, 'fixtures/vectors'), shared, { recursive: true })
  cpSync(folder, join(shared, 'real'), { recursive: true })
  const run = async (): Promise<{ code: number | null; out: string }> => {
    const child = spawn(process.execPath, [...process.execArgv, join(root, 'tools/repo-checks/src/check-vectors.ts')], {
      env: { ...process.env, WEFT_SHARED_VECTORS: shared },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let out = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk))
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
    return { code, out }
  }
  const before = await run()
  t.equal(before.code, 0, before.out)
  t.match(before.out, /vectors: \d+ copies equal/)
  t.match(before.out, /real: every header, payload and cut keeps the rules/)
  withChangedTarget(join(shared, 'real'))
  const after = await run()
  t.equal(after.code, 1)
  t.match(after.out, /real: FAILED .*chain 5 at 12/)
})
