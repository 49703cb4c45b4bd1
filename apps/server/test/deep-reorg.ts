import { cpSync } from 'node:fs'
import { join } from 'node:path'
import type { Header } from '@weft/block'
import { fill, reorg } from '@weft/devnet'
import { openStore, type StoreEvent } from '@weft/store'
import type { Cut } from '@weft/types'
import t, { type Test } from 'tap'
import type { RunningServer } from '../src/index.js'
import { chainBlocks, postJson, sendJson, startNode } from './fixtures/node.js'
import { announcedHashes, subscribe } from './fixtures/streams.js'

// Filled once; each profile reorganises its own copy.
const folders = t.testdir()
async function filled(name: string, network: 'test-singleton' | 'development', blocks: number): Promise<string> {
  const store = await openStore({ path: join(folders, name), network })
  await fill(store, { blocks, forkRate: 0.05, seed: 'reorg-tests' })
  await store.close()
  return join(folders, name)
}
const deep = await filled('deep', 'test-singleton', 1100)
const braided = await filled('braided', 'development', 400)

interface HashPage {
  items: string[]
  next: string | null
}
const b64 = (hash: Buffer): string => hash.toString('base64url')

// Copies a filled folder and starts a node on it, with both streams open and every store event recorded.
async function nodeOn(t: Test, folder: string, network: 'test-singleton' | 'development', profile: 'spec' | 'chainweb') {
  const data = join(t.testdir(), 'data')
  cpSync(folder, data, { recursive: true })
  const server: RunningServer = await startNode(t, { data, network, profile, keepAlive: 0 })
  const base = `${server.url}/${profile === 'spec' ? 'chain' : 'chainweb'}/0.0/${network}`
  const streams = [await subscribe(`${base}/header/updates`), await subscribe(`${base}/block/updates`)]
  await until(() => server.eventClients().header === 1 && server.eventClients().block === 1, 'both streams open')
  const inserted: string[] = []
  const joined: string[] = []
  server.store.subscribe((event: StoreEvent) => {
    if (event.type === 'inserted') inserted.push(b64(event.header.hash))
    else joined.push(...event.joined.map((block) => b64(block.header.hash)))
  })
  // What the profile's streams must have announced: every insert (spec), the blocks joining the cut (chainweb).
  const announced = () => (profile === 'spec' ? inserted : joined)
  const streamsAnnounced = async (): Promise<string[][]> => {
    await until(() => streams.every((stream) => stream.data().length === announced().length), 'every announcement on every stream')
    for (const stream of streams) stream.destroy()
    return streams.map(announcedHashes)
  }
  return { server, base, inserted, joined, announced, streamsAnnounced }
}

// The new branch of a reorganised chain, ancestors first, from just above its fork point.
async function branchUp(server: RunningServer, head: Header, fork: Header): Promise<string[]> {
  const line: string[] = []
  for (let at: Header | undefined = head; at !== undefined && at.height > fork.height; at = await server.store.getHeader(at.parent))
    line.push(b64(at.hash))
  return line.reverse()
}

for (const profile of ['spec', 'chainweb'] as const) {
  t.test(`${profile} profile: after a reorg 1,000 blocks deep, pages, branches, the cut and the streams are right`, async (t) => {
    const node = await nodeOn(t, deep, 'test-singleton', profile)
    const { server, base } = node
    const [change] = (await reorg(server.store, { chains: [0], depth: 1000, seed: profile })).chains
    const { forkPoint, oldHead, newHead } = change!
    const newBranch = await branchUp(server, newHead, forkPoint)
    const oldBranch = await branchUp(server, oldHead, forkPoint)
    t.equal(newBranch.length, 1000)

    const cut = (await sendJson<Cut>(`${base}/cut`)).json
    t.same(cut.hashes['0'], { height: newHead.height, hash: b64(newHead.hash) }, '/cut moved to the new head')
    const stored = (await chainBlocks(server, 0)).filter((block) => block.height > forkPoint.height)
    const page = await sendJson<HashPage>(`${base}/chain/0/hash?minheight=${forkPoint.height + 1}`)
    t.same(
      page.json.items,
      stored.map((block) => block.hash),
      'the hash page lists every block, orphans included',
    )
    t.ok(
      oldBranch.every((hash) => page.json.items.includes(hash)),
      'the old branch among them',
    )
    const branch = async (upper: Header) =>
      (await postJson<HashPage>(`${base}/chain/0/hash/branch`, { upper: [b64(upper.hash)], lower: [b64(forkPoint.hash)] })).json.items
    t.same(await branch(newHead), [...newBranch].reverse(), 'the branch of the new head down to the fork point')
    t.same(await branch(oldHead), [...oldBranch].reverse(), 'the old branch is still there to ask for')

    const [headerStream, blockStream] = await node.streamsAnnounced()
    t.same(headerStream, node.announced())
    t.same(blockStream, node.announced())
    if (profile === 'spec') t.same(node.inserted, newBranch, 'the spec streams announced every inserted block')
    else t.same(node.joined, newBranch, 'the chainweb streams announced the new branch from the fork point up, each once')
  })

  t.test(`${profile} profile: after several chains reorganise at once, the cut and the streams follow`, async (t) => {
    const node = await nodeOn(t, braided, 'development', profile)
    const { server, base } = node
    const before = new Map(server.store.cut())
    const { chains } = await reorg(server.store, { chains: [3, 8, 12], depth: 10, seed: profile })
    const cut = (await sendJson<Cut>(`${base}/cut`)).json
    const branches = new Map<number, string[]>()
    for (const { chain, forkPoint, newHead } of chains) {
      t.same(cut.hashes[String(chain)], { height: newHead.height, hash: b64(newHead.hash) }, `chain ${chain}: /cut moved`)
      branches.set(chain, await branchUp(server, newHead, forkPoint))
      const answer = await postJson<HashPage>(`${base}/chain/${chain}/hash/branch`, {
        upper: [b64(newHead.hash)],
        lower: [b64(forkPoint.hash)],
      })
      t.same(answer.json.items, [...branches.get(chain)!].reverse(), `chain ${chain}: its new branch`)
    }
    for (const [chain, head] of before)
      if (![3, 8, 12].includes(chain)) t.same(cut.hashes[String(chain)]!.hash, b64(head.hash), `chain ${chain} unmoved`)
    const [headerStream, blockStream] = await node.streamsAnnounced()
    t.same(headerStream, node.announced())
    t.same(blockStream, node.announced())
    t.equal(node.inserted.length, 30)
    if (profile === 'chainweb') {
      t.same(new Set(node.joined), new Set([...branches.values()].flat()), 'the new branches, nothing else')
      t.equal(new Set(node.joined).size, node.joined.length, 'each block once')
      for (const line of branches.values()) {
        const positions = line.map((hash) => node.joined.indexOf(hash))
        t.same(
          positions,
          [...positions].sort((a, b) => a - b),
          'each branch from its fork point up',
        )
      }
    }
  })
}

import { until } from '@weft/test-kit'
