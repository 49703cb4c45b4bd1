import { errorCode } from '@weft/errors'
import { StoreOpenError, type StoreOpenReason } from './errors.js'

interface Cause {
  readonly code: string | undefined
  readonly message: string
}

// An error and its causes, outermost first (ten at most: a cause chain may loop).
function causes(error: unknown): Cause[] {
  const chain: Cause[] = []
  for (let current = error; current !== undefined && current !== null && chain.length < 10; current = (current as Error).cause)
    chain.push({ code: errorCode(current), message: String((current as Error).message ?? current) })
  return chain
}

// The first rule that any cause meets names the reason; classic-level words a denied permission in its message only.
const rules: ReadonlyArray<readonly [StoreOpenReason, (cause: Cause) => boolean]> = [
  ['locked', (cause) => cause.code === 'LEVEL_LOCKED'],
  // classic-level has no read-only mode: LevelDB takes its LOCK file and writes its log even to read.
  ['read-only', (cause) => cause.code === 'EROFS' || /read-only file system/i.test(cause.message)],
  ['permission-denied', (cause) => cause.code === 'EACCES' || cause.code === 'EPERM' || /permission denied/i.test(cause.message)],
  ['not-a-folder', (cause) => cause.code === 'EEXIST' || cause.code === 'ENOTDIR'],
  ['corrupt', (cause) => cause.code === 'LEVEL_CORRUPTION'],
  ['disk-full', (cause) => isNoSpace(cause)],
]

// LevelDB words ENOSPC in the message of its IO error (`IO error: <file>: No space left on device`).
const isNoSpace = (cause: Cause): boolean => cause.code === 'ENOSPC' || /no space left on device/i.test(cause.message)

/** Whether `error` (or a cause of it) is the disk refusing a write for want of space. */
export function isDiskFull(error: unknown): boolean {
  return causes(error).some(isNoSpace)
}

/** Why classic-level (or the system under it) failed to open or read the folder: the first reason any cause of `error` shows, else `failed`. */
export function openFailureReason(error: unknown): StoreOpenReason {
  const chain = causes(error)
  return rules.find(([, test]) => chain.some(test))?.[0] ?? 'failed'
}

/** A failure of the engine while the store in `path` opened, as the store's `StoreOpenError`: its reason, and the innermost cause's words. */
export function openFailure(path: string, error: unknown): StoreOpenError {
  const chain = causes(error)
  return new StoreOpenError(path, openFailureReason(error), chain[chain.length - 1]?.message ?? 'no reason given', { cause: error })
}
