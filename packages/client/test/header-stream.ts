import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fill } from '@weft/devnet'
import { eventually, freshFolder } from '@weft/test-kit'
import t from 'tap'
import { type AnyHeaderUpdate, createClient, type HeaderStreamEvent } from '../src/index.js'
import { filledNode, serveData } from './fixtures/nodes.js'

t.test('the header update stream', async (t) => {
  const { server } = await filledNode(t)

  t.test('header updates arrive as blocks are inserted and the stream resumes after a restart', async (t) => {
    const controller = new AbortController()
    const events: HeaderStreamEvent[] = []
    const updates = () => events.filter((e): e is { type: 'update'; update: AnyHeaderUpdate } => e.type === 'update')
    const connections = () => events.filter((e) => e.type === 'connected').length
    const restartable = await serveData(t, { data: freshFolder(t) })
    const port = restartable.port
    const live = createClient({ url: restartable.url, validate: true })
    const reading = (async () => {
      for await (const event of live.headerEvents({ signal: controller.signal, retryDelay: 50 })) events.push(event)
    })()
    t.ok(await eventually(() => connections() === 1), 'connected')
    await fill(restartable.store, { blocks: 12, forkRate: 0.3, seed: 'updates' })
    t.ok(await eventually(() => updates().length >= 12), 'every insert arrives')
    await restartable.close()
    const again = await serveData(t, { data: restartable.config.data, port })
    t.ok(await eventually(() => connections() === 2), 'reconnected after the restart')
    await fill(again.store, { blocks: 12, forkRate: 0.3, seed: 'more' })
    t.ok(await eventually(() => updates().length >= 24), 'inserts after the restart arrive')
    const hashes = updates().map((e) => e.update.header.hash)
    t.equal(new Set(hashes).size, 24, 'each insert arrives once')
    for (const hash of hashes) if (!(await again.store.getHeader(Buffer.from(hash, 'base64url')))) t.fail(`${hash} is not stored`)
    controller.abort()
    await reading
    t.pass('aborting ends the stream')
  })

  t.test('a stream silent past the idle timeout is dropped and opened again', async (t) => {
    const quiet = await serveData(t, { data: freshFolder(t), keepAlive: 0 })
    const controller = new AbortController()
    let connections = 0
    for await (const event of createClient({ url: quiet.url }).headerEvents({
      signal: controller.signal,
      idleTimeout: 100,
      retryDelay: 10,
    })) {
      if (event.type === 'connected' && ++connections === 3) controller.abort()
    }
    t.equal(connections, 3, 'two reconnections without any event or keep-alive')
  })

  t.test('a client error on the stream is thrown, not retried', async (t) => {
    const wrong = createClient({ url: server.url, network: 'mainnet01', profile: 'spec' })
    const reading = (async () => {
      for await (const update of wrong.headerUpdates({ retryDelay: 10 })) t.fail(`unexpected ${JSON.stringify(update)}`)
    })()
    await t.rejects(reading, { name: 'WeftHttpError', status: 404 })
  })

  t.test('an unreachable node is retried until aborted', async (t) => {
    const stopped = await serveData(t, { data: freshFolder(t) })
    await stopped.close()
    const unreachable = createClient({ url: stopped.url, network: 'development', profile: 'spec' })
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 300)
    for await (const update of unreachable.headerUpdates({ signal: controller.signal, retryDelay: 20, maxRetryDelay: 40 }))
      t.fail(`unexpected ${JSON.stringify(update)}`)
    t.ok(controller.signal.aborted)
    await t.rejects(unreachable.info(), { code: 'NETWORK_ERROR' })
  })
})

t.test('a peer that accepts the stream and never answers is given up after the idle timeout and asked again', async (t) => {
  let requests = 0
  const peer = createServer(() => {
    requests += 1 // never answers: no status line, no headers
  })
  await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve))
  t.teardown(() => {
    peer.closeAllConnections()
    peer.close()
  })
  const client = createClient({ url: `http://127.0.0.1:${(peer.address() as AddressInfo).port}`, network: 'development', profile: 'spec' })
  const controller = new AbortController()
  const giveUp = setTimeout(() => controller.abort(), 300_000)
  const reading = (async () => {
    for await (const event of client.headerEvents({ signal: controller.signal, idleTimeout: 100, retryDelay: 10 }))
      t.fail(`unexpected ${JSON.stringify(event)}`)
  })()
  t.ok(await eventually(() => requests >= 3), 'the stream was asked again after each silent attempt')
  controller.abort()
  clearTimeout(giveUp)
  await reading
})

t.test('stream options out of range are refused before anything is sent', async (t) => {
  let requests = 0
  const client = createClient({
    url: 'http://127.0.0.1:9',
    network: 'development',
    profile: 'spec',
    fetch: async () => {
      requests += 1
      return new Response('')
    },
  })
  for (const [option, options] of [
    ['retryDelay', { retryDelay: 0 }],
    ['retryDelay', { retryDelay: -5 }],
    ['retryDelay', { retryDelay: Number.NaN }],
    ['maxRetryDelay', { maxRetryDelay: -1 }],
    ['maxRetryDelay', { retryDelay: 100, maxRetryDelay: 50 }],
    ['idleTimeout', { idleTimeout: -1 }],
  ] as const) {
    await t.rejects(
      client.headerEvents(options).next(),
      { name: 'InvalidOptionError', code: 'INVALID_CLIENT_OPTION', option },
      JSON.stringify(options),
    )
    await t.rejects(client.confirmedHeaders({ depth: 1, ...options }).next(), { code: 'INVALID_CLIENT_OPTION', option })
  }
  t.equal(requests, 0)
})
