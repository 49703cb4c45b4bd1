import { join } from 'node:path'
import { genesisBlock, getNetwork } from '@weft/block'
import t from 'tap'
import { openStore } from '../src/index.js'
import { openImportStore } from '../src/open-store.js'
import { mineLine } from '../src/suite/chain-miner.js'
import { chainStoreSuite } from '../src/suite/index.js'

// The contract suite against classic-level stores, each in a folder of its own.
const root = t.testdir()
let stores = 0
chainStoreSuite(
  (name, fn) => t.test(name, fn),
  (network, { cutPolicy, importing }) =>
    (importing ? openImportStore : openStore)({ path: join(root, String(stores++)), network, cutPolicy }),
  { importing: true, snapshots: true, transactionIndex: true },
)

t.test('a second close() resolves only once the store is closed: its folder opens again at once', async (t) => {
  const path = join(root, 'closed-twice')
  const store = await openStore({ path, network: 'test-singleton' })
  // Writes still queued keep the first close() busy for a while.
  const writing = store.insertMany(mineLine(getNetwork('test-singleton'), genesisBlock(getNetwork('test-singleton'), 0).header, 600))
  const first = store.close()
  await store.close()
  const again = await openStore({ path, network: 'test-singleton' })
  await again.close()
  await first
  t.equal(await writing, 600)
  t.pass('the lock was released when the second call resolved')
})
