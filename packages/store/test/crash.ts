import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { decodeHeader, genesisHeight, getNetwork, type Header, headerToJsonText, isBetterHead } from '@weft/block'
import { ClassicLevel } from 'classic-level'
import t from 'tap'
import { openStore } from '../src/index.js'
import {
  blockKey,
  blockPrefix,
  decodeBlockRecord,
  decodeHashRecord,
  hashIndexKey,
  hashPrefix,
  heightOfBlockKey,
  payloadKey,
} from '../src/keys.js'
import { transpiledFixture } from './fixtures/transpiled.js'

const network = getNetwork('test-singleton')
const rounds = 20

// The writer runs as plain JavaScript transpiled from the current sources (see the fixture).
const transpileWriter = (dir: string): string => transpiledFixture(dir, 'test/fixtures/crash-writer.ts')

// Runs the writer until a random moment after it opened the store, kills it with SIGKILL, and
// returns the hashes it acknowledged (complete lines only: a torn last line was never an ack).
async function runAndKill(writer: string, path: string, seed: number, killAfterMs: number): Promise<string[]> {
  const child = spawn(process.execPath, [writer, path, String(seed)], { stdio: ['ignore', 'pipe', 'inherit'] })
  let output = ''
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)))
  await new Promise<void>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      if (output.startsWith('ready\n')) resolve()
    })
    void exited.then(() => resolve())
  })
  await new Promise((resolve) => setTimeout(resolve, killAfterMs))
  child.kill('SIGKILL')
  const signal = await exited
  if (signal !== 'SIGKILL') throw new Error(`Expected the writer to be killed, but it ended by itself: ${output.slice(0, 500)}`)
  const lines = output.split('\n')
  lines.pop()
  return lines.filter((line) => line !== 'ready')
}

interface Scan {
  blocks: number
  problems: string[]
  cut: Map<number, Header>
}

// Reads every record of the folder directly and checks that the indexes agree with each other.
async function scan(path: string): Promise<Scan> {
  const db = new ClassicLevel<Buffer, Buffer>(path, { keyEncoding: 'buffer', valueEncoding: 'buffer' })
  const problems: string[] = []
  const cut = new Map<number, Header>()
  let blocks = 0
  try {
    for await (const [key, value] of db.iterator({ gte: Buffer.of(blockPrefix), lt: Buffer.of(blockPrefix + 1) })) {
      blocks++
      const record = decodeBlockRecord(value)
      const header = decodeHeader(record.headerBinary)
      const name = header.hash.toString('base64url')
      if (!key.equals(blockKey(header.chainId, header.height, header.hash)) || heightOfBlockKey(key) !== header.height)
        problems.push(`${name}: key disagrees with header`)
      if (record.headerJson.toString() !== headerToJsonText(header, 'spec')) problems.push(`${name}: header JSON disagrees with binary`)
      if (!record.payloadHash.equals(header.payloadHash)) problems.push(`${name}: payload hash disagrees`)
      const index = await db.get(hashIndexKey(header.hash))
      const ref = index === undefined ? undefined : decodeHashRecord(index)
      if (ref === undefined || ref.chainId !== header.chainId || ref.height !== header.height || !ref.parent.equals(header.parent))
        problems.push(`${name}: hash index missing or disagrees`)
      if ((await db.get(payloadKey(header.payloadHash))) === undefined) problems.push(`${name}: payload index missing`)
      const payload = JSON.parse(record.payloadJson.toString()) as { payloadHash?: string }
      if (payload.payloadHash !== header.payloadHash.toString('base64url')) problems.push(`${name}: payload in the record disagrees`)
      if (header.height !== genesisHeight(network, header.chainId) && (await db.get(hashIndexKey(header.parent))) === undefined)
        problems.push(`${name}: parent missing`)
      const best = cut.get(header.chainId)
      if (best === undefined || isBetterHead(header, best)) cut.set(header.chainId, header)
    }
    const indexed = await db.keys({ gte: Buffer.of(hashPrefix), lt: Buffer.of(hashPrefix + 1) }).all()
    if (indexed.length !== blocks) problems.push(`${indexed.length} hash index entries for ${blocks} block records`)
  } finally {
    await db.close()
  }
  return { blocks, problems, cut }
}

t.test('after SIGKILL at random moments, every acknowledged block is there, whole, indexed and in the cut', async (t) => {
  const root = t.testdir({ data: {}, code: {} })
  const path = join(root, 'data')
  const writer = transpileWriter(join(root, 'code'))
  const acknowledged: string[] = []
  let seed = 1
  for (let round = 0; round < rounds; round++) {
    const acks = await runAndKill(writer, path, seed++, 20 + Math.floor(Math.random() * 130))
    acknowledged.push(...acks)
    const { blocks, problems, cut } = await scan(path)
    t.same(problems, [], `round ${round}: no half-written block, indexes agree (${blocks} blocks)`)
    const store = await openStore({ path, network: 'test-singleton' })
    try {
      const found = await store.getRefs(acknowledged.map((hash) => Buffer.from(hash, 'base64url')))
      t.equal(
        found.filter((ref) => ref === undefined).length,
        0,
        `round ${round}: all ${acknowledged.length} acknowledged blocks are stored`,
      )
      const storedCut = [...store.cut()].map(([chain, head]) => [chain, head.hash.toString('base64url')])
      const recomputed = [...cut].sort(([a], [b]) => a - b).map(([chain, head]) => [chain, head.hash.toString('base64url')])
      t.same(
        storedCut.sort(([a], [b]) => Number(a) - Number(b)),
        recomputed,
        `round ${round}: the cut equals the one recomputed from the blocks`,
      )
    } finally {
      await store.close()
    }
  }
  t.ok(acknowledged.length > rounds, `the writers acknowledged ${acknowledged.length} blocks in all`)
})
