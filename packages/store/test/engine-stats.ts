import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { parseLevelStats } from '../src/engine-stats.js'
import { openStore, StoreClosedError } from '../src/index.js'

// `leveldb.stats` as classic-level 3 printed it at the end of a 2,000,000-block bulk load.
const bulkLoad = [
  '                               Compactions',
  'Level  Files Size(MB) Time(sec) Read(MB) Write(MB)',
  '--------------------------------------------------',
  '  0        0        0        19        0      2991',
  '  1        5        9        47     5462      5472',
  '  2       56       98        73     7426      7435',
  '  3      814      969       218    20504     20500',
  '  4     1021     1931        16     1418      1418',
  '',
].join('\n')

t.test('parseLevelStats reads every level line and skips the headings', async (t) => {
  const levels = parseLevelStats(bulkLoad)
  t.same(
    levels.map((level) => level.level),
    [0, 1, 2, 3, 4],
  )
  t.same(levels[3], { level: 3, files: 814, mebibytes: 969, compactionSeconds: 218, readMiB: 20504, writtenMiB: 20500 })
  t.same(levels[0], { level: 0, files: 0, mebibytes: 0, compactionSeconds: 19, readMiB: 0, writtenMiB: 2991 })
  t.same(parseLevelStats(''), [], 'no levels: an empty database')
  t.same(parseLevelStats('Level  Files\n  1 2 3\n'), [], 'a line short of six numbers is not a level')
})

t.test("a store's engine statistics count the table files in its folder", async (t) => {
  const path = join(t.testdir(), 'store')
  // Opening again replays the first opening's log (the genesis blocks) into a level-0 table.
  await (await openStore({ path, network: 'recap-development' })).close()
  const store = await openStore({ path, network: 'recap-development' })
  const stats = store.engineStats!()
  const tables = readdirSync(path).filter((name) => name.endsWith('.ldb')).length
  t.ok(tables > 0, 'the replayed log became a table')
  t.equal(
    stats.levels.reduce((sum, level) => sum + level.files, 0),
    tables,
  )
  t.ok(stats.memoryBytes > 0, 'LevelDB estimates its memory')
  await store.close()
  t.throws(() => store.engineStats!(), StoreClosedError)
})
