import { encodeHash } from '@weft/hash-text'
import t from 'tap'
import { weft, weftInProcess } from '../fixtures/cli.js'
import { filledNode, winningBranch } from '../fixtures/nodes.js'

t.test('branch prints the winning branch between the bounds, descending', async (t) => {
  const { server } = await filledNode(t, { blocks: 200 })
  const url = server.url
  const winning = await winningBranch(server, 6)
  const run = await weft([
    'branch',
    '--url',
    url,
    '--chain',
    '6',
    '--upper',
    encodeHash(winning.at(-1)!.hash),
    '--lower',
    encodeHash(winning[2]!.hash),
    '--page-size',
    '3',
  ])
  t.equal(run.code, 0)
  t.same(
    run.lines.map((b) => (b as { header: { hash: string } }).header.hash),
    winning
      .slice(3)
      .reverse()
      .map((h) => encodeHash(h.hash)),
  )
  const two = await weftInProcess(['branch', '--url', url, '--chain', '6', '--upper', encodeHash(winning.at(-1)!.hash), '--limit', '2'])
  t.equal(two.lines.length, 2)
  t.equal(
    (await weftInProcess(['branch', '--url', url, '--chain', '6', '--upper', encodeHash(winning.at(-1)!.hash), '--limit', '0'])).stdout,
    '',
  )
})
