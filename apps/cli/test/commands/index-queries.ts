import { fill } from '@weft/devnet'
import t from 'tap'
import { weftInProcess } from '../fixtures/cli.js'
import { filledNode } from '../fixtures/nodes.js'

type Row = Record<string, unknown>

t.test('weft tx, events and transfers against a spec node', async (t) => {
  const { server } = await filledNode(t, { blocks: 100, forkRate: 0.2 })
  const url = server.url

  const stored = (await server.store.index.events({ module: 'coin', name: 'TRANSFER', limit: 1000 })).items
  const events = await weftInProcess(['events', '--url', url, '--name', 'coin.TRANSFER', '--page-size', '11'])
  t.equal(events.code, 0, events.stderr)
  t.same(
    (events.lines as Row[]).map((row) => [row.blockHash, row.position, row.index, row.canonical]),
    stored.map((event) => [event.block.hash, event.position, event.index, event.block.canonical]),
    'every coin.TRANSFER event, newest first, orphans marked',
  )
  const few = await weftInProcess(['events', '--url', url, '--module', 'coin', '-n', '3', '--canonical', '--chain', '2'])
  t.equal(few.lines.length, 3)
  t.ok((few.lines as Row[]).every((row) => row.canonical === true && row.chain === 2 && row.module === 'coin'))

  const account = ((events.lines as Row[]).find((row) => (row.params as string[])[0] !== '')!.params as string[])[0]!
  const transfers = await weftInProcess(['transfers', account, '--url', url, '--token', 'coin', '--maxheight', '1000000'])
  const mine = (await server.store.index.transfers({ account, limit: 1000 })).items
  t.same(
    (transfers.lines as Row[]).map((row) => [row.blockHash, row.amount]),
    mine.map((item) => [item.block.hash, item.amount]),
    `the transfers of ${account}`,
  )

  const { requestKey } = stored.find((event) => event.position >= 0)!
  const tx = await weftInProcess(['tx', requestKey, '--url', url])
  t.equal(tx.code, 0)
  t.ok(tx.lines.length >= 1 && (tx.lines as Row[]).every((row) => row.requestKey === requestKey && typeof row.depth === 'number'))
  const missing = await weftInProcess(['tx', 'A'.repeat(43), '--url', url])
  t.equal(missing.code, 1)
  t.match(missing.stderr, /TX_NOT_FOUND 404/)

  for (const args of [
    ['tx'],
    ['tx', 'abc'],
    ['events'],
    ['events', '--name', 'coin.TRANSFER', '--module', 'coin'],
    ['events', '--name', 'coin.TRANSFER', '--next', 'exclusive:x'],
    ['transfers'],
  ])
    t.equal((await weftInProcess([...args, '--url', url])).code, 2, args.join(' '))

  // --follow: events as their blocks join, until --limit.
  const following = weftInProcess(['events', '--url', url, '--name', 'coin.TRANSFER', '--follow', '-n', '4'])
  let done = false
  void following.then(() => (done = true))
  for (let round = 0; !done && round < 50; round++) {
    await fill(server.store, { blocks: 20, forkRate: 0, seed: `cli follow ${round}` })
    await new Promise((resolve) => setImmediate(resolve))
  }
  const followed = await following
  t.equal(followed.code, 0)
  t.equal(followed.lines.length, 4)
  t.ok((followed.lines as Row[]).every((row) => row.module === 'coin' && row.name === 'TRANSFER'))
})
