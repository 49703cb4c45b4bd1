import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { mineBlock } from '@weft/devnet'
import type { RunningServer } from '@weft/server'
import { openStore } from '@weft/store'
import type { PayloadWithOutputs } from '@weft/types'
import t, { type Test } from 'tap'
import { type MirrorEvent, mirror } from '../src/index.js'
import { eventually, filledNode, freshFolder, rawPages, serveData, winningBranch } from './fixtures/nodes.js'

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
const chains = Array.from({ length: 20 }, (_, chain) => chain)

async function storedBlockCount(server: RunningServer): Promise<number> {
  let count = 0
  for (const chain of chains) for await (const item of server.store.range({ chain })) count += item.hash.length > 0 ? 1 : 0
  return count
}

// Every GET block page of every chain, with two page sizes, must be the same bytes on both nodes.
async function assertSamePages(t: Test, upstream: RunningServer, local: RunningServer, base: string): Promise<void> {
  let pages = 0
  let differing = 0
  for (const chain of chains) {
    for (const limit of [undefined, 7]) {
      const expected = await rawPages(upstream.url, base, chain, limit)
      const actual = await rawPages(local.url, base, chain, limit)
      pages += expected.length
      if (JSON.stringify(expected) !== JSON.stringify(actual)) {
        differing += 1
        t.same(actual, expected, `chain ${chain}, limit ${limit ?? 'default'}`)
      }
    }
  }
  t.equal(differing, 0, `${pages} pages byte-identical on both nodes`)
}

t.test('a mirror into an empty folder serves every GET block page byte for byte like its upstream', async (t) => {
  const { server: upstream } = await filledNode(t, { blocks: 300, forkRate: 0.25 })
  const data = freshFolder(t)
  const events: MirrorEvent[] = []
  const progress: Array<[number, number]> = []
  const result = await mirror({
    from: upstream.url,
    data,
    once: true,
    pageSize: 50,
    validate: true,
    onEvent: (e) => events.push(e),
    onProgress: (done, total) => progress.push([done, total]),
  })
  t.same(result, { network: 'development', inserted: 300 }, 'every block but the genesis blocks was new')
  t.match(events.at(-1), { event: 'synced', inserted: 300, chains: 20 })
  t.ok(events.filter((e) => e.event === 'page').length >= 20, 'a page event per page')
  const [done, total] = progress.at(-1)!
  t.ok(total > 0 && done === total, `progress reached ${done}/${total} heights`)
  const again = await mirror({ from: upstream.url, data, once: true })
  t.equal(again.inserted, 0, 'a second run finds nothing new')
  const local = await serveData(t, { data })
  await assertSamePages(t, upstream, local, '/chain/0.0/development')
  await local.close()
  await t.rejects(mirror({ from: upstream.url, data: await singletonFolder(t), once: true }), { code: 'NETWORK_MISMATCH' })
})

t.test('a fork that grew below the resume point is fetched with its missing ancestors', async (t) => {
  const { server: upstream } = await filledNode(t, { network: 'test-singleton', blocks: 30, forkRate: 0 })
  const data = freshFolder(t)
  t.equal((await mirror({ from: upstream.url, data, once: true })).inserted, 30)
  // Three blocks forking two below the head: with no resume margin, the copy starts at the head's
  // height and meets the fork's second block before its first.
  const winning = await winningBranch(upstream, 0)
  let parent = winning.at(-3)!
  const payload = JSON.parse(String(await upstream.store.getPayloadJson(parent.payloadHash))) as PayloadWithOutputs
  const fork = []
  for (let i = 0; i < 3; i++) {
    const block = mineBlock({ parent, adjacents: [], payload, creationTime: parent.creationTime + 1000, nonce: 12345n })
    fork.push(block)
    parent = block.header
  }
  t.equal(await upstream.store.insertMany(fork), 3)
  t.equal((await mirror({ from: upstream.url, data, once: true, resumeMargin: 0 })).inserted, 3, 'only the fork was new')
  const local = await serveData(t, { data, network: 'test-singleton' })
  const base = '/chain/0.0/test-singleton'
  t.same(await rawPages(local.url, base, 0, 5), await rawPages(upstream.url, base, 0, 5), 'the same pages on both nodes')
})

t.test('a following mirror whose copy meets a dropped connection reconnects and copies again', async (t) => {
  const { server: upstream } = await filledNode(t, { blocks: 60, seed: 'drop' })
  let infoCalls = 0
  const controller = new AbortController()
  const events: MirrorEvent[] = []
  const result = await mirror({
    from: upstream.url,
    data: freshFolder(t),
    signal: controller.signal,
    retryDelay: 20,
    onEvent: (e) => {
      events.push(e)
      if (e.event === 'synced') controller.abort()
    },
    // The second /info (the one of the copy, after the stream connected) fails as if the upstream went away.
    fetch: async (input, init) => {
      if (String(input).endsWith('/info') && ++infoCalls === 2) throw new TypeError('fetch failed', { cause: new Error('ECONNRESET') })
      return fetch(input, init)
    },
  })
  t.ok(infoCalls >= 3, 'the copy was started again')
  t.equal(result.inserted, 60)
  t.match(events.at(-1), { event: 'synced', inserted: 60 })
})

async function singletonFolder(t: Test): Promise<string> {
  const data = freshFolder(t)
  await (await openStore({ path: data, network: 'test-singleton' })).close()
  return data
}

t.test('weft mirror killed half way with SIGKILL and run again ends byte-identical', async (t) => {
  const { server: upstream } = await filledNode(t, { blocks: 300, forkRate: 0.25, seed: 'kill' })
  const data = freshFolder(t)
  const args = [cli, 'mirror', '--from', upstream.url, '--data', data, '--once', '--page-size', '4']
  const first = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  t.teardown(() => void first.kill('SIGKILL'))
  let pages = 0
  let killedAt = 0
  for await (const line of createInterface({ input: first.stdout })) {
    const event = JSON.parse(line) as MirrorEvent
    if (event.event === 'page') pages += 1
    if (pages === 40) {
      first.kill('SIGKILL')
      break
    }
  }
  const [, signal] = (await new Promise((resolve) => first.on('exit', (...exit) => resolve(exit)))) as [number | null, string | null]
  t.equal(signal, 'SIGKILL', 'the first run was killed')
  killedAt = pages
  const second = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  t.teardown(() => void second.kill('SIGKILL'))
  const lines: string[] = []
  for await (const line of createInterface({ input: second.stdout })) lines.push(line)
  const code = await new Promise((resolve) => second.on('exit', resolve))
  t.equal(code, 0, 'the second run finished')
  const synced = lines.map((line) => JSON.parse(line) as MirrorEvent).find((e) => e.event === 'synced')
  t.ok(
    synced && synced.event === 'synced' && synced.inserted > 0 && synced.inserted < 300,
    `the second run inserted only what was missing (${JSON.stringify(synced)}), after ${killedAt} pages`,
  )
  const local = await serveData(t, { data })
  await assertSamePages(t, upstream, local, '/chain/0.0/development')
})

for (const profile of ['spec', 'chainweb'] as const) {
  t.test(`following a ${profile}-profile upstream picks up new blocks and forks, across an upstream restart`, async (t) => {
    const upstreamData = freshFolder(t)
    const producing = { data: upstreamData, profile, devnet: true, blockDelay: 0.5, forkRate: 0.3 }
    let upstream = await serveData(t, producing)
    const port = upstream.port
    const data = freshFolder(t)
    const controller = new AbortController()
    const events: MirrorEvent[] = []
    const running = mirror({
      from: upstream.url,
      data,
      signal: controller.signal,
      retryDelay: 50,
      resumeMargin: 4,
      onEvent: (e) => events.push(e),
    })
    t.ok(await eventually(() => events.some((e) => e.event === 'synced')), 'the first copy finished')
    t.ok(await eventually(() => events.filter((e) => e.event === 'inserted').length >= 60), 'new blocks arrive while following')
    await upstream.close()
    // Without a producer the upstream stays fixed, so the mirror can be seen to catch up.
    upstream = await serveData(t, { data: upstreamData, profile, port })
    const target = (await storedBlockCount(upstream)) - 20
    const orphans = target - [...upstream.store.cut().values()].reduce((sum, head) => sum + head.height, 0)
    t.ok(orphans > 0, `the upstream made ${orphans} orphans, which the mirror must copy too`)
    const inserted = () => events.reduce((sum, e) => sum + (e.event === 'inserted' ? 1 : e.event === 'page' ? e.inserted : 0), 0)
    t.ok(await eventually(() => inserted() === target), `the mirror caught up: ${inserted()} of ${target} blocks`)
    controller.abort()
    const result = await running
    t.equal(result.inserted, target)
    const local = await serveData(t, { data, profile })
    await assertSamePages(t, upstream, local, profile === 'spec' ? '/chain/0.0/development' : '/chainweb/0.0/development')
  })
}
