import { readFileSync } from 'node:fs'
import * as api from '@weft/api'
import * as block from '@weft/block'
import * as client from '@weft/client'
import * as commandLine from '@weft/command-line'
import * as cursor from '@weft/cursor'
import * as devnet from '@weft/devnet'
import * as errors from '@weft/errors'
import { WeftError } from '@weft/errors'
import * as hashText from '@weft/hash-text'
import * as weftIndex from '@weft/index'
import * as ingest from '@weft/ingest'
import * as server from '@weft/server'
import * as store from '@weft/store'
import * as traversal from '@weft/traversal'
import * as types from '@weft/types'
import t from 'tap'

// Every published package, with the folder whose README lists its codes.
const packages: ReadonlyArray<{ name: string; folder: string; exports: Record<string, unknown> }> = [
  { name: '@weft/errors', folder: 'packages/errors', exports: errors },
  { name: '@weft/hash-text', folder: 'packages/hash-text', exports: hashText },
  { name: '@weft/api', folder: 'packages/api', exports: api },
  { name: '@weft/command-line', folder: 'packages/command-line', exports: commandLine },
  { name: '@weft/types', folder: 'packages/types', exports: types },
  { name: '@weft/block', folder: 'packages/block', exports: block },
  { name: '@weft/cursor', folder: 'packages/cursor', exports: cursor },
  { name: '@weft/traversal', folder: 'packages/traversal', exports: traversal },
  { name: '@weft/index', folder: 'packages/index', exports: weftIndex },
  { name: '@weft/store', folder: 'packages/store', exports: store },
  { name: '@weft/devnet', folder: 'packages/devnet', exports: devnet },
  { name: '@weft/ingest', folder: 'packages/ingest', exports: ingest },
  { name: '@weft/server', folder: 'apps/server', exports: server },
  { name: '@weft/client', folder: 'packages/client', exports: client },
]

type ErrorClass = (abstract new (...args: never[]) => Error) & { codes?: readonly string[] }

const isErrorClass = (value: unknown): value is ErrorClass => typeof value === 'function' && value.prototype instanceof Error

const root = new URL('../../../', import.meta.url)
const exported = packages.flatMap((pkg) =>
  Object.entries(pkg.exports).flatMap(([name, value]) => (isErrorClass(value) ? [{ pkg, name, cls: value }] : [])),
)
// A package may re-export another's class (@weft/client re-exports @weft/api's HTTP errors): the class
// is counted once, under the package listed first, which owns it.
const classes = exported.filter((entry, index) => exported.findIndex((other) => other.cls === entry.cls) === index)

t.test('every exported error class of every package extends the one base, WeftError', async (t) => {
  t.ok(classes.length >= 20, `found ${classes.length} error classes`)
  for (const { pkg, name, cls } of classes) {
    if (cls === WeftError) continue
    t.ok(cls.prototype instanceof WeftError, `${pkg.name} ${name} extends WeftError`)
  }
})

t.test('no code has two owners, and every package README lists its codes', async (t) => {
  const owners = new Map<string, string[]>()
  for (const { pkg, name, cls } of classes) {
    if (!Object.hasOwn(cls, 'codes')) continue
    for (const code of cls.codes ?? []) owners.set(code, [...(owners.get(code) ?? []), `${pkg.name} ${name}`])
  }
  t.ok(owners.size >= 20, `found ${owners.size} codes`)
  for (const [code, owning] of owners) t.equal(owning.length, 1, `${code} is owned by ${owning.join(', ')}`)
  for (const pkg of packages) {
    const readme = readFileSync(new URL(`${pkg.folder}/README.md`, root), 'utf8')
    for (const { cls } of classes.filter((entry) => entry.pkg === pkg && Object.hasOwn(entry.cls, 'codes'))) {
      for (const code of cls.codes ?? []) t.ok(readme.includes(`\`${code}\``), `${pkg.name}'s README lists ${code}`)
    }
  }
})

t.test('a concrete error class lists its codes; only abstract bases list none', async (t) => {
  for (const { pkg, name, cls } of classes) {
    if (cls === WeftError) continue
    const own = Object.hasOwn(cls, 'codes') ? (cls.codes ?? []) : []
    if (own.length > 0) continue
    // A class without codes of its own can only be a base: constructing it must fail.
    t.throws(
      () => new (cls as unknown as new (code: string, message: string) => Error)('ANY_CODE', 'x'),
      TypeError,
      `${pkg.name} ${name} has no codes and cannot be thrown`,
    )
  }
})
