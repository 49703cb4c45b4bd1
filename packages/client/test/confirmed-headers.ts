import type { Header } from '@weft/block'
import { encodeHash } from '@weft/hash-text'
import type { RunningServer } from '@weft/server'
import { eventually, freshFolder } from '@weft/test-kit'
import t from 'tap'
import { type AnyBlockHeader, createClient, InvalidOptionError, ReorgTooDeepError } from '../src/index.js'
import { filledNode, serveData, winningBranch } from './fixtures/nodes.js'
import { resettingProxy } from './fixtures/resetting-proxy.js'

const depth = 3
const chains = [0, 5, 11]

// What a correct run emits for a chain: the winning branch from the first emitted height up to `depth` below the head.
async function expectedSequence(server: RunningServer, chain: number, from: number): Promise<string[]> {
  const branch = await winningBranch(server, chain)
  const top = branch.length - 1 - depth
  return branch.filter((h: Header) => h.height >= from && h.height <= top).map((h) => encodeHash(h.hash))
}

function byChain(emitted: readonly AnyBlockHeader[], chain: number): AnyBlockHeader[] {
  return emitted.filter((h) => h.chainId === chain)
}

t.test(
  'over a producer with forks and two server restarts, each chain gets its winning branch less depth, gap- and orphan-free',
  async (t) => {
    const data = freshFolder(t)
    const producing = { data, devnet: true, blockDelay: 0.4, forkRate: 0.3 }
    let server = await serveData(t, producing)
    const port = server.port
    const client = createClient({ url: server.url, validate: true })
    const emitted: AnyBlockHeader[] = []
    const controller = new AbortController()
    const reading = (async () => {
      for await (const header of client.confirmedHeaders({ depth, chains, signal: controller.signal, retryDelay: 50 })) emitted.push(header)
    })()
    t.ok(await eventually(() => emitted.length >= 15), 'headers are confirmed while the producer runs')
    for (const restart of [1, 2]) {
      await server.close()
      const before = emitted.length
      server = await serveData(t, restart === 1 ? { ...producing, port } : { data, port })
      if (restart === 1) t.ok(await eventually(() => emitted.length >= before + 15), 'emission goes on after the first restart')
    }
    // The last server has no producer: the final winning branches are fixed and the client catches up.
    const final = server
    t.ok(
      await eventually(() =>
        chains.every((chain) => byChain(emitted, chain).at(-1)?.height === final.store.cut().get(chain)!.height - depth),
      ),
      'every chain catches up to depth below its final head',
    )
    controller.abort()
    await reading
    for (const chain of chains) {
      const sequence = byChain(emitted, chain)
      const first = sequence[0]!
      t.same(
        sequence.map((h) => h.hash),
        await expectedSequence(final, chain, first.height),
        `chain ${chain}: ${sequence.length} headers, the winning branch less the last ${depth}`,
      )
      t.ok(
        sequence.every((h, i) => i === 0 || (h.parent === sequence[i - 1]!.hash && h.height === sequence[i - 1]!.height + 1)),
        `chain ${chain}: each header's parent is the one before`,
      )
    }
    t.notOk(
      emitted.some((h) => !chains.includes(h.chainId)),
      'only the chains asked for',
    )
    // The check means something only if forks happened among the heights that were emitted.
    let orphans = 0
    for (const chain of chains) {
      const winning = new Set((await winningBranch(final, chain)).map((h) => encodeHash(h.hash)))
      const from = byChain(emitted, chain)[0]!.height
      for await (const item of final.store.range({ chain, minheight: from })) if (!winning.has(encodeHash(item.hash))) orphans += 1
    }
    t.ok(orphans > 0, `the producer made ${orphans} orphans on these chains meanwhile`)
  },
)

t.test('connections reset in the middle of stream events and branch pages lose nothing: the same winning branches, gap-free', async (t) => {
  const server = await serveData(t, { data: freshFolder(t), devnet: true, blockDelay: 0.4, forkRate: 0 })
  const proxy = await resettingProxy(t, server.url, [
    { request: /^GET \S*\/header\/updates /, times: 2, bodyBytes: 1500 },
    { request: /^POST \S*\/branch/, times: 2, bodyBytes: 100 },
  ])
  const client = createClient({ url: proxy.url })
  const emitted: AnyBlockHeader[] = []
  const controller = new AbortController()
  const reading = (async () => {
    for await (const header of client.confirmedHeaders({ depth, chains, signal: controller.signal, retryDelay: 50 })) emitted.push(header)
  })()
  t.ok(await eventually(() => proxy.resets() === 4), 'two streams and two branch pages were cut off mid-body')
  const after = emitted.length
  t.ok(await eventually(() => emitted.length >= after + 15), 'emission goes on after them')
  controller.abort()
  await reading
  for (const chain of chains) {
    const sequence = byChain(emitted, chain)
    const first = sequence[0]!.height
    const last = sequence.at(-1)!.height
    const branch = (await winningBranch(server, chain)).filter((h) => h.height >= first && h.height <= last)
    t.same(
      sequence.map((h) => h.hash),
      branch.map((h) => encodeHash(h.hash)),
      `chain ${chain}: heights ${first} to ${last} of the winning branch, each once`,
    )
  }
})

t.test('with after, emission resumes right after the given header, history included', async (t) => {
  const { server } = await filledNode(t, { blocks: 300, profile: 'chainweb' })
  const client = createClient({ url: server.url })
  const branch = await winningBranch(server, 4)
  const start = branch[2]!
  const top = branch.length - 1 - 1
  for (const maxGap of [undefined, 1, 4]) {
    const emitted: AnyBlockHeader[] = []
    const controller = new AbortController()
    const after = new Map([[4, { hash: encodeHash(start.hash), height: start.height }]])
    for await (const header of client.confirmedHeaders({
      depth: 1,
      chains: [4],
      after,
      signal: controller.signal,
      ...(maxGap ? { maxGap } : {}),
    })) {
      emitted.push(header)
      if (header.height === top) controller.abort()
    }
    t.same(
      emitted.map((h) => h.hash),
      branch.slice(3, top + 1).map((h) => encodeHash(h.hash)),
      `the winning branch from height 3 to the head less 1, with maxGap ${maxGap ?? 'default'}`,
    )
    t.equal(
      (emitted[0] as { chainwebVersion?: string } | undefined)?.chainwebVersion,
      'development',
      'headers come in the profile of the node',
    )
  }
  await t.rejects(
    (async () => {
      for await (const header of client.confirmedHeaders({ depth: 1, maxGap: 0 })) t.fail(`emitted ${header.hash}`)
    })(),
    InvalidOptionError,
  )
})

t.test('without chains, every chain of the node is followed', async (t) => {
  const { server } = await filledNode(t, { blocks: 100, network: 'development' })
  const client = createClient({ url: server.url })
  const controller = new AbortController()
  const emitted: AnyBlockHeader[] = []
  for await (const header of client.confirmedHeaders({ depth: 0, signal: controller.signal })) {
    emitted.push(header)
    if (emitted.length === 20) controller.abort()
  }
  t.same(
    emitted.map((h) => h.chainId).sort((a, b) => a - b),
    Array.from({ length: 20 }, (_, chain) => chain),
    'one head per chain at depth 0',
  )
  t.same(emitted.map((h) => h.hash).sort(), [...server.store.cut().values()].map((h) => encodeHash(h.hash)).sort())
})

t.test('a chain not yet depth blocks above genesis emits nothing until it is', async (t) => {
  const { server } = await filledNode(t, { blocks: 0, network: 'test-singleton' })
  const client = createClient({ url: server.url })
  const controller = new AbortController()
  const emitted: AnyBlockHeader[] = []
  const reading = (async () => {
    for await (const header of client.confirmedHeaders({ depth: 2, signal: controller.signal })) emitted.push(header)
  })()
  await new Promise((resolve) => setTimeout(resolve, 300))
  t.same(emitted, [], 'a lone genesis is not 2 deep')
  const { fill } = await import('@weft/devnet')
  await fill(server.store, { blocks: 3, seed: 'grow' })
  t.ok(await eventually(() => emitted.length === 2), 'heights 0 and 1 follow once the head reaches 3')
  controller.abort()
  await reading
  t.same(
    emitted.map((h) => h.height),
    [0, 1],
  )
})

t.test('a resume point off the winning branch is reported as a reorganisation deeper than depth', async (t) => {
  const { server } = await filledNode(t, { blocks: 200 })
  const winning = new Set((await winningBranch(server, 1)).map((h) => encodeHash(h.hash)))
  // Below the head: an orphan at the head's own height leaves nothing to emit at depth 0, and the
  // client only finds the fork once it has a header to emit above it.
  const headHeight = server.store.heads().get(1)!.height
  let orphan: { hash: string; height: number } | undefined
  for await (const item of server.store.range({ chain: 1 })) {
    if (!winning.has(encodeHash(item.hash)) && item.height < headHeight) orphan = { hash: encodeHash(item.hash), height: item.height }
  }
  t.ok(orphan, 'the store has an orphan below the head on chain 1')
  const client = createClient({ url: server.url })
  await t.rejects(async () => {
    for await (const header of client.confirmedHeaders({ depth: 0, chains: [1], after: new Map([[1, orphan!]]) }))
      t.fail(`emitted ${header.hash}`)
  }, ReorgTooDeepError)
  await t.rejects(async () => {
    for await (const header of client.confirmedHeaders({ depth: -1 })) t.fail(`emitted ${header.hash}`)
  }, InvalidOptionError)
})

t.test('a request that fails after the stream connected is retried on a new connection', async (t) => {
  const { server } = await filledNode(t, { blocks: 60 })
  let failures = 0
  const client = createClient({
    url: server.url,
    fetch: async (input, init) => {
      // The first head lookup after connecting meets a dropped connection.
      if (String(input).endsWith('/cut') && failures++ === 0) throw new TypeError('fetch failed', { cause: new Error('socket hang up') })
      return fetch(input, init)
    },
  })
  const controller = new AbortController()
  const emitted: AnyBlockHeader[] = []
  for await (const header of client.confirmedHeaders({
    depth: 0,
    chains: [9],
    signal: controller.signal,
    retryDelay: 20,
    maxRetryDelay: 40,
  })) {
    emitted.push(header)
    controller.abort()
  }
  t.equal(failures, 2, 'the failed lookup was made again')
  t.same(
    emitted.map((h) => h.hash),
    [encodeHash(server.store.cut().get(9)!.hash)],
  )
})
