import { type Block, genesisBlock, genesisBlocks, getNetwork, type Header, MAX_U256, mineChildHeader } from '@weft/block'
import { decodeHash } from '@weft/hash-text'
import t, { type Test } from 'tap'
import { BlockReads } from '../src/block-reads.js'
import { type ChainStore, openStore, RULES_VERSION, type RulesCheckProgress } from '../src/index.js'
import { metaKey } from '../src/keys.js'
import { openImportStore } from '../src/open-store.js'
import { checkStoredRules } from '../src/rules-check.js'
import { makePayload, mineBraid, mineLine, mineValidChild } from '../src/suite/chain-miner.js'
import { editFolder } from './fixtures/level.js'

// Stores written before Weft recorded the rules it checks (`m rules`): checked at open, resumably,
// or refused; and the clock that judges creation times.
const development = getNetwork('development')
const singleton = getNetwork('test-singleton')
const genesisTips = (): Map<number, Header> => new Map(genesisBlocks(development).map((block) => [block.header.chainId, block.header]))
const payload = makePayload('rules')

async function rulesOf(path: string): Promise<string | undefined> {
  let rules: string | undefined
  await editFolder(path, async (db) => {
    rules = (await db.get(metaKey('rules')))?.toString()
  })
  return rules
}

// A development store of four braided heights (100 blocks with the genesis blocks), as an older Weft left it: without `m rules`.
async function olderStore(path: string): Promise<void> {
  const store = await openStore({ path, network: 'development' })
  await store.insertMany(mineBraid(development, genesisTips(), 4).blocks)
  await store.close()
  await editFolder(path, (db) => db.del(metaKey('rules')))
}

const closing = async (t: Test, opened: Promise<ChainStore>): Promise<ChainStore> => {
  const store = await opened
  t.teardown(() => store.close())
  return store
}

// A child of test-singleton's genesis block with the easiest target (its proof of work and weight
// agree with it) instead of the one the rules give: a block only a check of the rules refuses.
function cheapChild(): Block {
  const parent = genesisBlock(singleton, 0).header
  const header = mineChildHeader(parent, {
    creationTime: parent.creationTime + 1_000_000,
    target: MAX_U256,
    payloadHash: decodeHash(payload.payloadHash),
  })
  return { header, payload }
}

t.test('a new store records the rules it checks; one written before is checked at open, with progress, and records them', async (t) => {
  const path = t.testdir()
  await (await openStore({ path, network: 'development' })).close()
  t.equal(await rulesOf(path), RULES_VERSION)
  await olderStore(path)
  t.equal(await rulesOf(path), undefined)
  const seen: RulesCheckProgress[] = []
  const store = await closing(t, openStore({ path, network: 'development', onRulesCheck: (progress) => seen.push(progress) }))
  t.same(seen.at(-1), { height: 5, top: 4, blocks: 100 }, 'the last report: every block of the 20 chains checked')
  t.equal(store.heads().get(7)?.height, 4)
  await store.close()
  t.equal(await rulesOf(path), RULES_VERSION)
  const again: RulesCheckProgress[] = []
  await (await openStore({ path, network: 'development', onRulesCheck: (progress) => again.push(progress) })).close()
  t.same(again, [], 'checked once')
})

t.test('a check stopped half way resumes from the heights it recorded', async (t) => {
  const path = t.testdir()
  await olderStore(path)
  const seen: RulesCheckProgress[] = []
  await editFolder(path, (db) =>
    t.rejects(
      checkStoredRules(db, new BlockReads(db), development, {
        path,
        top: 4,
        recordEveryMs: 0,
        onProgress: (progress) => {
          seen.push(progress)
          if (progress.height === 2) throw new Error('stopped')
        },
      }),
      /stopped/,
    ),
  )
  t.same(seen, [
    { height: 1, top: 4, blocks: 20 },
    { height: 2, top: 4, blocks: 40 },
  ])
  t.equal(await rulesOf(path), undefined)
  const resumed: RulesCheckProgress[] = []
  await (await openStore({ path, network: 'development', onRulesCheck: (progress) => resumed.push(progress) })).close()
  t.same(resumed.at(-1), { height: 5, top: 4, blocks: 60 }, 'heights 2 to 4 only')
  t.equal(await rulesOf(path), RULES_VERSION)
})

t.test('a store holding a block that breaks a rule is refused with STORE_BREAKS_RULES, which says how to fix it', async (t) => {
  const path = t.testdir()
  const importing = await openImportStore({ path, network: 'test-singleton' })
  const cheap = cheapChild()
  t.same(await importing.insert(cheap), { inserted: true }, 'an import store checks hashes and parent links only')
  await importing.close()
  t.equal(await rulesOf(path), undefined, 'and records no rules')
  const error = await openStore({ path, network: 'test-singleton' }).then(
    () => undefined,
    (error: unknown) => error,
  )
  t.match(error, {
    code: 'STORE_BREAKS_RULES',
    name: 'BrokenRulesError',
    message: /breaks INVALID_TARGET .*move the folder away and fill a new one/,
    violations: [{ code: 'INVALID_TARGET' }],
  })
  // The refused open closed the database again: the folder can be opened (and refused) again.
  await t.rejects(openStore({ path, network: 'test-singleton' }), { code: 'STORE_BREAKS_RULES' })
})

t.test('an older store whose adjacents name blocks further below (braiding was optional) is refused with INVALID_BRAIDING', async (t) => {
  const path = t.testdir()
  const importing = await openImportStore({ path, network: 'development' })
  const genesis = (chain: number): Header => genesisBlock(development, chain).header
  const first = mineValidChild(development, genesis(0))
  const adjacentParents = first.header.adjacents.map(([chain]) => genesis(chain))
  // Chain 0 at 2 names its neighbours' genesis blocks, read from the store by the check.
  const second = mineValidChild(development, first.header, { adjacentParents })
  await importing.insertMany([first, second])
  await importing.close()
  await t.rejects(openStore({ path, network: 'development' }), {
    code: 'STORE_BREAKS_RULES',
    violations: [{ code: 'INVALID_BRAIDING' }],
  })
})

t.test('a store that records rules this Weft does not know is refused with UNSUPPORTED_LAYOUT', async (t) => {
  const path = t.testdir()
  await (await openStore({ path, network: 'test-singleton' })).close()
  await editFolder(path, (db) => db.put(metaKey('rules'), Buffer.from('chainweb-node 9.9')))
  await t.rejects(openStore({ path, network: 'test-singleton' }), { code: 'UNSUPPORTED_LAYOUT', message: /rules chainweb-node 9\.9/ })
})

t.test('a block created after the store clock is refused with BLOCK_IN_THE_FUTURE, and taken once the clock passes it', async (t) => {
  let now = 0
  const store = await closing(t, openStore({ path: t.testdir(), network: 'test-singleton', clock: () => now }))
  const [block] = mineLine(singleton, genesisBlock(singleton, 0).header, 1)
  now = block!.header.creationTime - 1
  await t.rejects(store.insert(block!), { code: 'INVALID_BLOCK', violations: [{ code: 'BLOCK_IN_THE_FUTURE' }] })
  t.equal(store.heads().get(0)?.height, 0, 'nothing stored')
  now = block!.header.creationTime
  t.same(await store.insert(block!), { inserted: true })
  t.equal(store.heads().get(0)?.height, 1)
})

t.test('a store refuses a block whose target is not the rules one, though its proof of work and weight agree with it', async (t) => {
  const store = await closing(t, openStore({ path: t.testdir(), network: 'test-singleton' }))
  await t.rejects(store.insert(cheapChild()), { code: 'INVALID_BLOCK', violations: [{ code: 'INVALID_TARGET' }] })
  t.equal(store.heads().get(0)?.height, 0)
})
