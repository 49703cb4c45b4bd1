import t from 'tap'
import { formatTapReport, readTapOutput } from '../src/tap-report.js'

// Turbo's output of two test tasks run at once (their lines interleaved), cut down from a real run
// under load: a file that passed, an assertion that failed in a subtest, a file tap ended, a skip.
const output = [
  '@weft/devnet:build: > tsc -p tsconfig.build.json',
  '@weft/devnet:test: TAP version 14',
  '@weft/traversal:test: # Subtest: test/ancestry.ts',
  '@weft/devnet:test: # Subtest: test/producer.ts',
  '@weft/devnet:test:     # Subtest: live, every chain advances',
  '@weft/devnet:test:         ok 1 - should be equal',
  '@weft/traversal:test:     ok 1 - ancestorAt agrees with the tree # time=92.8ms',
  '@weft/devnet:test:         not ok 2 - heights 4 4 4 3',
  '@weft/devnet:test:           ---',
  '@weft/devnet:test:           at:',
  '@weft/devnet:test:             fileName: test/producer.ts',
  '@weft/devnet:test:           ...',
  '@weft/devnet:test:         ',
  '@weft/devnet:test:         1..2',
  '@weft/devnet:test:     not ok 1 - live, every chain advances # time=4512.7ms',
  '@weft/devnet:test:     ok 2 - a stopped producer does not restart # SKIP filter: /x/',
  '@weft/devnet:test:     1..2',
  '@weft/devnet:test: not ok 1 - test/producer.ts # time=47253.9ms',
  '@weft/traversal:test:     1..1',
  '@weft/traversal:test: ok 1 - test/ancestry.ts # time=6876.1ms',
  '@weft/traversal:test: # Subtest: test/branch.ts',
  '@weft/traversal:test:     ok 1 - branch equals the brute force # time=7362.9ms',
  '@weft/traversal:test: not ok 2 - test/branch.ts # time=52569.6ms',
  '@weft/traversal:test: not ok 3 - timeout!',
  '@weft/traversal:test:   ---',
  '@weft/traversal:test:   expired: test/branch.ts',
  '@weft/traversal:test:   ...',
  '@weft/traversal:test: # { total: 3, pass: 2, fail: 1 }',
  '@weft/devnet:test: # { total: 3, pass: 1, fail: 1, skip: 1 }',
  '@weft/devnet#test:  WARNING  command finished with error, but continuing...',
  '@weft/store:test: # { total: 2, pass: 2 }',
  '@weft/store:test: ERROR: Coverage for branches (96.66%) does not meet threshold (100%)',
  '@weft/store#test:  WARNING  command finished with error, but continuing...',
  '@weft/traversal#test:  ERROR  command (/repo/packages/traversal) /usr/bin/pnpm run test exited (1)',
  ' Tasks:    2 successful, 4 total',
].join('\n')

t.test('the counts are summed over the packages', async (t) => {
  t.match(readTapOutput(output), { total: 8, pass: 5, fail: 2, packages: 3 })
})

t.test('each failed assertion is named by its package, file and subtests; a file tap ended, by its file', async (t) => {
  t.same(readTapOutput(output).failures, [
    { pkg: '@weft/devnet', path: ['test/producer.ts', 'live, every chain advances', 'heights 4 4 4 3'] },
    { pkg: '@weft/traversal', path: ['test/branch.ts', 'timeout!'] },
  ])
})

t.test('every task turbo saw fail is named, one with no failed assertion too (a coverage bar missed)', async (t) => {
  t.same(readTapOutput(output).failedTasks, ['@weft/devnet#test', '@weft/store#test', '@weft/traversal#test'])
})

t.test('files come slowest first, with their package', async (t) => {
  t.same(readTapOutput(output).files, [
    { pkg: '@weft/traversal', file: 'test/branch.ts', ms: 52569.6 },
    { pkg: '@weft/devnet', file: 'test/producer.ts', ms: 47253.9 },
    { pkg: '@weft/traversal', file: 'test/ancestry.ts', ms: 6876.1 },
  ])
})

t.test('the report says the counts, then the failures, then the slowest files', async (t) => {
  t.same(formatTapReport(readTapOutput(output), 2), [
    '5 passed, 2 failed, 8 in all (3 packages)',
    'failed:',
    '  @weft/devnet test/producer.ts > live, every chain advances > heights 4 4 4 3',
    '  @weft/traversal test/branch.ts > timeout!',
    'failed tasks (a coverage bar missed or a crash shows in the log, not above):',
    '  @weft/devnet#test',
    '  @weft/store#test',
    '  @weft/traversal#test',
    'slowest files:',
    '  52.6 s @weft/traversal test/branch.ts',
    '  47.3 s @weft/devnet test/producer.ts',
  ])
  t.same(formatTapReport(readTapOutput('')), ['0 passed, 0 failed, 0 in all (0 packages)'], 'nothing ran: no lists')
})
