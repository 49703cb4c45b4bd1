import { get } from 'node:http'
import type { Header } from '@weft/block'
import { fill, reorg } from '@weft/devnet'
import { openStore, type StoreEvent } from '@weft/store'
import { eventually, freshFolder } from '@weft/test-kit'
import t from 'tap'
import type { RunningServer } from '../src/index.js'
import { startNode } from './fixtures/node.js'
import { caughtUp, startFollower } from './fixtures/upstreams.js'

interface Announced {
  hash: string
  parent: string
  chainId: number
  height: number
}

// Reads a node's chainweb-profile header updates until `stop` is called; frames in arrival order.
function readUpdates(server: RunningServer): { events: Announced[]; stop: () => void } {
  const events: Announced[] = []
  let buffered = ''
  const req = get(`${server.url}/chainweb/0.0/development/header/updates`, { agent: false }, (res) => {
    res.setEncoding('utf8')
    res.on('data', (chunk: string) => {
      buffered += chunk
      for (let end = buffered.indexOf('\n\n'); end >= 0; end = buffered.indexOf('\n\n')) {
        const frame = buffered.slice(0, end)
        buffered = buffered.slice(end + 2)
        const data = frame.split('\n').find((line) => line.startsWith('data:'))
        if (data !== undefined) events.push((JSON.parse(data.slice(5)) as { header: Announced }).header)
      }
    })
  })
  req.on('error', () => undefined)
  return { events, stop: () => req.destroy() }
}

t.test(
  "a follower's chainweb streams over forks and a reorg: parents first, only blocks of its cut, one branch per fork pair",
  async (t) => {
    const data = freshFolder(t)
    const seeded = await openStore({ path: data, network: 'development' })
    await fill(seeded, { blocks: 400, forkRate: 0.3, seed: 'streams' })
    await seeded.close()
    const upstream = await startNode(t, { data })
    const { server: follower } = await startFollower(t, [upstream.url], { profile: 'chainweb' })
    t.ok(await eventually(() => caughtUp(upstream, follower)), 'the follower caught up')

    const stream = readUpdates(follower)
    t.teardown(stream.stop)
    t.ok(await eventually(() => follower.eventClients().header === 1), 'the stream is open')
    const openCut = new Map(follower.store.cut())
    const cutEvents: Array<Extract<StoreEvent, { type: 'cut' }>> = []
    follower.store.subscribe((event) => {
      if (event.type === 'cut') cutEvents.push(event)
    })

    await fill(upstream.store, { blocks: 300, forkRate: 0.4, seed: 'streams-more' })
    t.ok(await eventually(() => caughtUp(upstream, follower)), 'the follower followed the forks')
    // A fork two blocks deep below chain 0's head that wins fork choice: the head and its parent lose.
    const [reorged] = (await reorg(upstream.store, { chains: [0], depth: 2, seed: 'streams-fork' })).chains
    t.ok(upstream.store.cut().get(0)!.hash.equals(reorged!.newHead.hash), 'the upstream reorganised chain 0')
    const fork: Header[] = [(await upstream.store.getHeader(reorged!.newHead.parent))!, reorged!.newHead]
    await fill(upstream.store, { blocks: 60, forkRate: 0.4, seed: 'streams-after' })
    t.ok(await eventually(() => caughtUp(upstream, follower)), 'the follower followed the reorg')
    const joined = cutEvents.flatMap((event) => event.joined.map((block) => ({ block: block.header, cut: event.cut })))
    t.ok(await eventually(() => stream.events.length >= joined.length), 'every joined block reached the stream')
    const { events } = stream

    t.same(
      events.map((event) => event.hash),
      joined.map(({ block }) => block.hash.toString('base64url')),
      'the stream announced exactly the blocks that joined the cut, in order',
    )
    // Every announced block was in the cut that its announcement came with.
    let outside = 0
    for (const { block, cut } of joined) if (!(await isAncestorOrSelf(follower, block, cut.get(block.chainId)!))) outside += 1
    t.equal(outside, 0, `no block was announced outside the cut (${joined.length} announced)`)
    // Every announced block's parent was announced before it or was in the cut when the stream opened.
    const inOpenCut = new Set<string>()
    for (const head of openCut.values()) for (const hash of await lineDown(follower, head)) inOpenCut.add(hash)
    const seen = new Set<string>()
    let orphanedParents = 0
    for (const event of events) {
      if (!seen.has(event.parent) && !inOpenCut.has(event.parent)) orphanedParents += 1
      seen.add(event.hash)
    }
    t.equal(orphanedParents, 0, 'parents come first')
    // Fork pairs written in one batch upstream: one of each is announced.
    const announced = new Set(events.map((event) => event.hash))
    const forkHashes = new Set(fork.map((header) => header.hash.toString('base64url')))
    let pairs = 0
    let bothAnnounced = 0
    for (const siblings of await siblingGroups(follower, openCut)) {
      if (siblings.some((hash) => forkHashes.has(hash))) continue
      pairs += 1
      if (siblings.filter((hash) => announced.has(hash)).length > 1) bothAnnounced += 1
    }
    t.ok(pairs > 10, `${pairs} fork pairs were written`)
    t.equal(bothAnnounced, 0, 'no fork pair announced both its blocks')
    const [first, second] = fork.map((header) => events.findIndex((event) => event.hash === header.hash.toString('base64url')))
    t.ok(first! >= 0 && second! > first!, 'the new branch was announced from the fork point up')
  },
)

async function isAncestorOrSelf(server: RunningServer, block: Header, head: Header): Promise<boolean> {
  let at: Header | undefined = head
  while (at !== undefined && at.height > block.height) at = await server.store.getHeader(at.parent)
  return at?.hash.equals(block.hash) ?? false
}

// The hashes of a head and all its ancestors.
async function lineDown(server: RunningServer, head: Header): Promise<string[]> {
  const hashes: string[] = []
  for (let at: Header | undefined = head; at !== undefined; at = at.height === 0 ? undefined : await server.store.getHeader(at.parent))
    hashes.push(at.hash.toString('base64url'))
  return hashes
}

// Blocks above the open cut that share a parent, grouped.
async function siblingGroups(server: RunningServer, openCut: ReadonlyMap<number, Header>): Promise<string[][]> {
  const groups = new Map<string, string[]>()
  for (const [chain, head] of openCut) {
    for await (const item of server.store.range({ chain, minheight: head.height + 1 })) {
      const header = JSON.parse(item.headerJson.toString('utf8')) as Announced
      groups.set(header.parent, [...(groups.get(header.parent) ?? []), header.hash])
    }
  }
  return [...groups.values()].filter((group) => group.length > 1)
}
