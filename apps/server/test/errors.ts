import { readFileSync } from 'node:fs'
import * as block from '@weft/block'
import * as cursor from '@weft/cursor'
import * as devnet from '@weft/devnet'
import { WeftError } from '@weft/errors'
import * as hashText from '@weft/hash-text'
import * as index from '@weft/index'
import * as store from '@weft/store'
import * as traversal from '@weft/traversal'
import t from 'tap'
import * as serverErrors from '../src/errors.js'
import { answeredCodes } from '../src/profile/error-table.js'

type ErrorClass = (abstract new (...args: never[]) => Error) & { codes?: readonly string[] }

const isErrorClass = (value: unknown): value is ErrorClass => typeof value === 'function' && value.prototype instanceof Error

// The server's own classes (most are internal, so the repository-wide check does not see them) and those of
// the packages below it, whose codes the server answers with.
const classesOf = (exports: Record<string, unknown>): Array<[string, ErrorClass]> =>
  Object.entries(exports).flatMap(([name, value]) => (isErrorClass(value) ? [[name, value] as [string, ErrorClass]] : []))
const own = classesOf(serverErrors)
const below = [block, cursor, devnet, hashText, index, store, traversal].flatMap(classesOf)

const ownersOf = (code: string): string[] =>
  [...own, ...below].filter(([, cls]) => Object.hasOwn(cls, 'codes') && (cls.codes ?? []).includes(code)).map(([name]) => name)

t.test('every server error class extends WeftError; the base cannot be thrown, the others list their codes', async (t) => {
  t.ok(own.length >= 13, `${own.length} classes`)
  for (const [name, cls] of own) {
    t.ok(cls.prototype instanceof WeftError, `${name} extends WeftError`)
    if (name === 'ServerError') {
      t.throws(() => new (cls as unknown as new (code: string, message: string) => Error)('ANY_CODE', 'x'), TypeError)
      continue
    }
    t.ok(Object.hasOwn(cls, 'codes') && (cls.codes ?? []).length > 0, `${name} lists its codes`)
  }
})

t.test('every code the server answers with or owns has exactly one owning class, here or below', async (t) => {
  const codes = new Set([...answeredCodes, ...own.flatMap(([, cls]) => (Object.hasOwn(cls, 'codes') ? (cls.codes ?? []) : []))])
  for (const code of codes) t.equal(ownersOf(code).length, 1, `${code} is owned by ${ownersOf(code).join(', ') || 'nobody'}`)
})

t.test('the README lists every code the server answers with or owns', async (t) => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
  for (const code of new Set([...answeredCodes, 'INVALID_CONFIG'])) t.ok(readme.includes(`\`${code}\``), code)
})
