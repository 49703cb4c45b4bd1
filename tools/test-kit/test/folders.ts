import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import t from 'tap'
import { freshFolder, seededRandom } from '../src/index.js'

t.test('freshFolder gives a new empty folder each call, all inside the one testdir of the test', async (t) => {
  const first = freshFolder(t)
  writeFileSync(join(first, 'kept'), 'x')
  const second = freshFolder(t)
  t.not(first, second)
  t.equal(dirname(first), dirname(second))
  t.same(readdirSync(second), [])
  t.ok(existsSync(join(first, 'kept')), 'a later folder leaves the earlier ones as they were')
})

t.test("a test's teardowns run before tap removes its folders, whatever order they were added in", async (t) => {
  let folder = ''
  let sawFolder = false
  await t.test('a test that writes into its folder until a teardown stops it', async (t) => {
    folder = freshFolder(t)
    // Added after the folder: it must still find the folder there when it runs.
    t.teardown(() => {
      sawFolder = existsSync(folder)
      mkdirSync(join(folder, 'written-at-teardown'))
    })
  })
  t.ok(sawFolder, 'the folder was there when the teardown ran')
  t.notOk(existsSync(dirname(folder)), 'and is removed after it, with what the teardown wrote')
})

t.test('seededRandom gives the same floats in [0, 1) for the same seed, others for another', async (t) => {
  const draw = (seed: number) => Array.from({ length: 200 }, seededRandom(seed))
  t.same(draw(7), draw(7))
  t.not(draw(7).join(), draw(8).join())
  t.ok(draw(7).every((x) => x >= 0 && x < 1))
  t.ok(new Set(draw(7)).size > 190, 'no short cycle')
})
