import t from 'tap'
import { openFailure, openFailureReason } from '../src/open-failure.js'

// Errors shaped as node and classic-level make them: a code, a message, a cause.
const failure = (code: string | undefined, message: string, cause?: unknown): Error =>
  Object.assign(new Error(message, cause === undefined ? {} : { cause }), code === undefined ? {} : { code })
const notOpen = (cause: unknown): Error => failure('LEVEL_DATABASE_NOT_OPEN', 'Database failed to open', cause)

t.test('the reason is the first rule any cause meets: locked, permission-denied, not-a-folder, corrupt, else failed', async (t) => {
  t.equal(openFailureReason(notOpen(failure('LEVEL_LOCKED', 'IO error: lock /d/LOCK: already held by process'))), 'locked')
  t.equal(openFailureReason(notOpen(failure('EACCES', "EACCES: permission denied, mkdir '/d'"))), 'permission-denied')
  t.equal(openFailureReason(notOpen(failure('EPERM', 'EPERM: operation not permitted'))), 'permission-denied')
  t.equal(openFailureReason(notOpen(failure('LEVEL_IO_ERROR', 'IO error: /d/LOCK: Permission denied'))), 'permission-denied')
  t.equal(openFailureReason(notOpen(failure('ENOTDIR', 'ENOTDIR: not a directory'))), 'not-a-folder')
  t.equal(openFailureReason(notOpen(failure('EEXIST', 'EEXIST: file already exists'))), 'not-a-folder')
  t.equal(openFailureReason(failure('LEVEL_CORRUPTION', 'Corruption: bad block')), 'corrupt')
  t.equal(openFailureReason(notOpen(failure('EIO', 'EIO: i/o error'))), 'failed')
  t.equal(openFailureReason('a thrown string'), 'failed')
  const both = notOpen(failure('LEVEL_CORRUPTION', 'Corruption: x', failure('LEVEL_LOCKED', 'held')))
  t.equal(openFailureReason(both), 'locked', 'a lock anywhere in the chain comes first')
})

t.test('the open error keeps the path in its message, the innermost words as its detail, and the failure as its cause', async (t) => {
  const cause = notOpen(failure('LEVEL_LOCKED', 'IO error: lock /d/LOCK: already held by process'))
  const error = openFailure('/d', cause)
  t.match(error, {
    code: 'STORE_OPEN_FAILED',
    name: 'StoreOpenError',
    reason: 'locked',
    detail: 'IO error: lock /d/LOCK: already held by process',
    message: 'Expected to open a store in /d, but classic-level refused',
  })
  t.equal(error.cause, cause)
  t.equal(openFailure('/d', 'a thrown string').detail, 'a thrown string')
  t.equal(openFailure('/d', undefined).detail, 'no reason given', 'even `throw undefined` gets words')
})

t.test('a chain of causes that loops is read ten deep, not forever', async (t) => {
  const looped = failure(undefined, 'first')
  ;(looped as { cause?: unknown }).cause = looped
  t.equal(openFailureReason(looped), 'failed')
  t.equal(openFailure('/d', looped).detail, 'first')
})
