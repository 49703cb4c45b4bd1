import t from 'tap'
import { chainStoreSuite } from '../src/suite/index.js'
import { openMemoryStore } from './fixtures/memory-store.js'

// The contract suite against a second implementation, kept in memory: it takes blocks as an import
// does when asked, and keeps neither a transaction index nor snapshots, which the suite then checks it says.
chainStoreSuite(
  (name, fn) => t.test(name, fn),
  async (network, { cutPolicy, importing }) => openMemoryStore(network, cutPolicy, importing),
  { importing: true, snapshots: false, transactionIndex: false },
)

t.test('the suite registers the HeaderSource tests only for a store that declares it takes blocks as an import does', async (t) => {
  const registered = (importing: boolean): string[] => {
    const names: string[] = []
    chainStoreSuite(
      (name) => void names.push(name),
      () => t.fail('registering opens no store') as never,
      { importing, snapshots: true, transactionIndex: true },
    )
    return names.filter((name) => name.startsWith('as a HeaderSource: '))
  }
  t.equal(registered(false).length, 0)
  t.ok(registered(true).length > 5, 'the HeaderSource tests of @weft/traversal')
})
