import { fill } from '@weft/devnet'
import { openStore } from '@weft/store'
import t from 'tap'
import { BlockWaits } from '../../src/pact/block-waits.js'

t.test('a wait ends when a block joins its chain, when its time runs out, or at close', async (t) => {
  const store = await openStore({ path: t.testdir(), network: 'development' })
  t.teardown(() => store.close())
  const waits = new BlockWaits(store)
  t.equal(await waits.next(0, 0), 'timeout', 'no time: at once')
  t.equal(await waits.next(0, 20), 'timeout')
  const chains = [...Array(20).keys()]
  const waiting = chains.map((chain) => waits.next(chain, 600_000))
  t.equal(waits.size, 20)
  await fill(store, { blocks: 40, seed: 'waits' })
  const ends = await Promise.all(waiting)
  t.same(
    ends,
    chains.map(() => 'block'),
    'every chain got a block',
  )
  t.equal(waits.size, 0)
  const last = waits.next(5, 600_000)
  waits.close()
  t.equal(await last, 'closed')
  t.equal(await waits.next(5, 600_000), 'closed', 'closed for good')
  await fill(store, { blocks: 5, seed: 'after' })
  t.equal(waits.size, 0)
})
