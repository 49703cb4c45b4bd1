import { mkdtempSync } from 'node:fs'
import { join } from 'node:path'

/** What the kit needs of a tap test: its own folder (`t.testdir()`), and work to do when it ends. */
export interface TestLike {
  testdir(): string
  teardown(fn: () => unknown): void
}

const testFolders = new WeakMap<TestLike, string>()

/**
 * A new empty folder inside the test's testdir (which tap removes afterwards), any number per test:
 * the testdir is made once, since `t.testdir()` empties it each time it is called.
 */
export function freshFolder(t: TestLike): string {
  let base = testFolders.get(t)
  if (base === undefined) {
    base = t.testdir()
    testFolders.set(t, base)
  }
  return mkdtempSync(join(base, 'store-'))
}
