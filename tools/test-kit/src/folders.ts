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
 *
 * The test's teardowns run before the folder is removed, whatever order they were added in. tap
 * runs its teardowns after the end hooks that were in place when the first teardown was added, and
 * the testdir's removal is such a hook once `t.testdir()` ran: a store or a writer closed by a
 * teardown could still be writing while its folder was removed (ENOTEMPTY). A teardown added
 * before the testdir exists puts the removal after all of them.
 */
export function freshFolder(t: TestLike): string {
  let base = testFolders.get(t)
  if (base === undefined) {
    t.teardown(() => undefined)
    base = t.testdir()
    testFolders.set(t, base)
  }
  return mkdtempSync(join(base, 'store-'))
}
