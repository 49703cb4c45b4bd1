import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import * as client from '../src/index.js'
import { importCycles, pathsToPackages, sourceFiles } from './fixtures/import-graph.js'

const packageRoot = fileURLToPath(new URL('..', import.meta.url))
const forbidden = new Set(['@weft/store', 'classic-level', '@weft/block', '@weft/ingest'])
// Only the types name @weft/types (and so TypeBox): the code loads them when `validate` asks, not before.
const forbiddenAtRunTime = new Set([...forbidden, '@weft/types', '@sinclair/typebox'])

t.test('the library exports what its users call, and nothing of the CLI or the mirror', async (t) => {
  t.same(Object.keys(client).sort(), [
    'InvalidOptionError',
    'InvalidResponseError',
    'ReorgTooDeepError',
    'WeftClientError',
    'WeftHttpError',
    'WeftNetworkError',
    'compareHeaders',
    'confirmedHeaders',
    'createClient',
    'isTransient',
    'parseEventStream',
  ])
})

t.test("the library's import graph reaches neither the store, ingest nor the block model; its code not even TypeBox", async (t) => {
  t.same(pathsToPackages([join(packageRoot, 'dist/index.d.ts')], forbidden), [], 'no import path from dist/index.d.ts')
  t.same(pathsToPackages([join(packageRoot, 'dist/index.js')], forbiddenAtRunTime), [], 'no import path from dist/index.js')
  t.ok(
    pathsToPackages([join(packageRoot, 'dist/index.d.ts')], forbiddenAtRunTime).some((path) => path.at(-1) === '@weft/types'),
    'the walk does find the schemas where they are: behind the types of the answers',
  )
})

t.test('an entry that imports the store, even through a dependency, is caught', async (t) => {
  const folder = t.testdir({
    'index.js': "export { a } from './a.js'\n",
    'a.js': "import { openStore } from '@weft/store'\nexport const a = openStore\n",
    'b.js': "export * from '@weft/server'\n",
  })
  const direct = pathsToPackages([join(folder, 'index.js')], forbidden)
  t.equal(direct.length, 1)
  t.same(direct[0]?.at(-1), '@weft/store')
  const throughDependency = pathsToPackages([join(folder, 'b.js')], forbidden)
  t.ok(throughDependency.length > 0, 'the server depends on the store: reaching it is reaching the store')
  writeFileSync(join(folder, 'c.js'), "import('classic-level')\n")
  t.same(pathsToPackages([join(folder, 'c.js')], forbidden)[0]?.at(-1), 'classic-level')
})

t.test('no import cycle among the sources, type imports included', async (t) => {
  const files = sourceFiles(join(packageRoot, 'src'))
  t.ok(files.length >= 10, `${files.length} source files`)
  t.same(importCycles(files, packageRoot), [])
  const folder = t.testdir({ 'a.ts': "import type { B } from './b.js'\n", 'b.ts': "import { a } from './a.js'\n" })
  t.same(importCycles(sourceFiles(folder), folder), [['a.ts', 'b.ts', 'a.ts']], 'a cycle is found when there is one')
})
