import { genesisBlock, getNetwork } from '@weft/block'
import t from 'tap'
import { eventually, lowestHead, mineLine, storeReaches, testStore, until } from '../src/index.js'

t.test('eventually says whether a condition came to hold within the bound, sync or async', async (t) => {
  let calls = 0
  t.equal(await eventually(() => ++calls === 3), true)
  t.equal(calls, 3)
  t.equal(await eventually(async () => false, 60), false)
})

t.test('until resolves once the condition holds, and rejects naming what did not happen', async (t) => {
  let ready = false
  setTimeout(() => {
    ready = true
  }, 30)
  await until(() => ready, 'the flag')
  await t.rejects(
    until(() => false, 'the never flag', 50),
    { message: 'Expected the never flag within 0.05 s, but it did not happen' },
  )
})

t.test('storeReaches resolves on the event that makes the condition hold, and rejects after the bound', async (t) => {
  const store = await testStore(t, { network: 'test-singleton' })
  const singleton = getNetwork('test-singleton')
  await storeReaches(store, () => lowestHead(store) === 0, 'genesis')
  const reached = storeReaches(store, () => lowestHead(store) === 2, 'height 2')
  await store.insertMany(mineLine(singleton, genesisBlock(singleton, 0).header, 2))
  await reached
  t.equal(lowestHead(store), 2)
  await t.rejects(
    storeReaches(store, () => false, 'nowhere', 40),
    { message: 'Expected the store to reach nowhere within 0.04 s, but it did not' },
  )
  const late = storeReaches(store, () => store.cut().get(0)!.height === 4, 'height 4', 60_000)
  for (const block of mineLine(singleton, store.cut().get(0)!, 2)) await store.insert(block)
  await late
})
