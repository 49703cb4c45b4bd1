import { createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mineBlock } from '@weft/devnet'
import { openStore } from '@weft/store'
import { eventually, freshFolder } from '@weft/test-kit'
import type { PayloadWithOutputs } from '@weft/types'
import t from 'tap'
import { assertSamePages, insertedBy, type MirrorLine, mirrorFolder, storedBlockCount } from '../fixtures/mirrored.js'
import { filledNode, rawPages, serveData, winningBranch } from '../fixtures/nodes.js'

t.test('a mirror into an empty folder serves every GET block page byte for byte like its upstream', async (t) => {
  const { server: upstream } = await filledNode(t, { blocks: 300, forkRate: 0.25 })
  const data = freshFolder(t)
  const run = await mirrorFolder(upstream.url, data, { args: ['--once', '--page-size', '50', '--validate'], tty: true })
  t.equal(run.code, 0, `exit code 0${run.code === 0 ? '' : `: ${run.stderr}`}`)
  t.match(run.lines.at(-1), { event: 'synced', inserted: 300, chains: 20 }, 'every block but the genesis blocks was new')
  t.ok(run.lines.filter((line) => line.event === 'page').length >= 20, 'a page event per page')
  const bars = [...run.stderr.matchAll(/(\d+)\/(\d+) heights/g)]
  const [, done, total] = bars.at(-1) ?? []
  t.ok(Number(total) > 0 && done === total, `progress reached ${done}/${total} heights`)
  const again = await mirrorFolder(upstream.url, data, { args: ['--once'] })
  t.match(again.lines.at(-1), { event: 'synced', inserted: 0 }, 'a second run finds nothing new')
  const local = await serveData(t, { data })
  await assertSamePages(t, upstream, local, '/chain/0.0/development')
  await local.close()
  const wrongNetwork = await mirrorFolder(upstream.url, freshFolder(t), { args: ['--once', '--network', 'test-singleton'] })
  t.equal(wrongNetwork.code, 1)
  t.match(wrongNetwork.stderr, /serves development.*\[UPSTREAM_NETWORK_MISMATCH\]/, 'an upstream of another network is refused')
  const singleton = freshFolder(t)
  await (await openStore({ path: singleton, network: 'test-singleton' })).close()
  const wrongFolder = await mirrorFolder(upstream.url, singleton, { args: ['--once'] })
  t.equal(wrongFolder.code, 1)
  t.match(wrongFolder.stderr, /\[NETWORK_MISMATCH\]/, 'a folder of another network is refused')
})

t.test('a fork that grew below the resume point is fetched with its missing ancestors', async (t) => {
  const { server: upstream } = await filledNode(t, { network: 'test-singleton', blocks: 30, forkRate: 0 })
  const data = freshFolder(t)
  t.match((await mirrorFolder(upstream.url, data, { args: ['--once'] })).lines.at(-1), { event: 'synced', inserted: 30 })
  // Three blocks forking two below the head: with no resume margin, the copy starts at the head's
  // height and meets the fork's second block before its first.
  const winning = await winningBranch(upstream, 0)
  let parent = winning.at(-3)!
  const payload = JSON.parse(String(await upstream.store.getPayloadJson(parent.payloadHash))) as PayloadWithOutputs
  const fork = []
  for (let i = 0; i < 3; i++) {
    const block = mineBlock({ parent, adjacentParents: [], payload, creationTime: parent.creationTime + 1000, nonce: 12345n })
    fork.push(block)
    parent = block.header
  }
  t.equal(await upstream.store.insertMany(fork), 3)
  const run = await mirrorFolder(upstream.url, data, { args: ['--once', '--resume-margin', '0'] })
  t.match(run.lines.at(-1), { event: 'synced', inserted: 3 }, 'only the fork was new')
  const local = await serveData(t, { data, network: 'test-singleton' })
  const base = '/chain/0.0/test-singleton'
  t.same(await rawPages(local.url, base, 0, 5), await rawPages(upstream.url, base, 0, 5), 'the same pages on both nodes')
})

t.test('a following mirror whose copy meets a dropped connection retries and completes the copy', async (t) => {
  const { server: upstream } = await filledNode(t, { blocks: 60, seed: 'drop' })
  // A proxy that drops the connection of the third page request as if the upstream went away.
  let pages = 0
  let dropped = ''
  const seen: string[] = []
  const proxy = createServer((req, res) => {
    seen.push(req.url ?? '')
    if (/\/block\?/.test(req.url ?? '') && ++pages === 3) {
      dropped = req.url ?? ''
      req.socket.destroy()
      return
    }
    const forwarded = request(`${upstream.url}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    })
    forwarded.on('error', () => res.destroy())
    res.on('close', () => forwarded.destroy())
    req.pipe(forwarded)
  })
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  t.teardown(() => {
    proxy.closeAllConnections()
    proxy.close()
  })
  const controller = new AbortController()
  const run = await mirrorFolder(`http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, freshFolder(t), {
    signal: controller.signal,
    onLine: (line: MirrorLine) => {
      if (line.event === 'synced') controller.abort()
    },
  })
  t.equal(run.code, 0, `exit code 0${run.code === 0 ? '' : `: ${run.stderr}`}`)
  t.ok(dropped !== '' && seen.filter((url) => url === dropped).length >= 2, 'the dropped request was made again')
  t.equal(insertedBy(run.lines), 60)
  t.match(run.lines.at(-1), { event: 'synced', inserted: 60 })
})

for (const profile of ['spec', 'chainweb'] as const) {
  t.test(`following a ${profile}-profile upstream picks up new blocks and forks, across an upstream restart`, async (t) => {
    const upstreamData = freshFolder(t)
    const producing = { data: upstreamData, profile, devnet: true, blockDelay: 0.5, forkRate: 0.3 }
    let upstream = await serveData(t, producing)
    const port = upstream.port
    const data = freshFolder(t)
    const controller = new AbortController()
    const lines: MirrorLine[] = []
    const running = mirrorFolder(upstream.url, data, {
      signal: controller.signal,
      args: ['--resume-margin', '4'],
      onLine: (line) => lines.push(line),
    })
    t.ok(await eventually(() => lines.some((line) => line.event === 'synced')), 'the first copy finished')
    t.ok(await eventually(() => lines.filter((line) => line.event === 'inserted').length >= 60), 'new blocks arrive while following')
    await upstream.close()
    // Without a producer the upstream stays fixed, so the mirror can be seen to catch up.
    upstream = await serveData(t, { data: upstreamData, profile, port })
    const target = (await storedBlockCount(upstream)) - 20
    const orphans = target - [...upstream.store.cut().values()].reduce((sum, head) => sum + head.height, 0)
    t.ok(orphans > 0, `the upstream made ${orphans} orphans, which the mirror must copy too`)
    t.ok(await eventually(() => insertedBy(lines) === target), `the mirror caught up: ${insertedBy(lines)} of ${target} blocks`)
    controller.abort()
    const run = await running
    t.equal(run.code, 0, `exit code 0${run.code === 0 ? '' : `: ${run.stderr}`}`)
    t.equal(insertedBy(run.lines), target)
    const local = await serveData(t, { data, profile })
    await assertSamePages(t, upstream, local, profile === 'spec' ? '/chain/0.0/development' : '/chainweb/0.0/development')
  })
}
