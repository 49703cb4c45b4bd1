import type { Static, TSchema } from '@sinclair/typebox'
import { TypeCompiler, type ValueError } from '@sinclair/typebox/compiler'

/** Why a value failed its schema, in words a message can use. */
export interface SchemaFailure {
  /** JSON pointer of the part that failed, `''` for the whole value: `/upper/0`. */
  readonly path: string
  /** The first segment of `path`: the query parameter or body key that failed, `''` for the whole value. */
  readonly key: string
  /** What the failing schema asks for: its description (`"a non-negative integer"`), else TypeBox's words. */
  readonly expected: string
  /** The value found there. */
  readonly received: unknown
}

/** A schema compiled once (TypeBox's `TypeCompiler`): a fast check, and the failures when it fails. */
export interface SchemaChecker<T extends TSchema> {
  check(value: unknown): value is Static<T>
  /** Every failure of `value`, in the order TypeBox finds them; empty when it passes. */
  failures(value: unknown): SchemaFailure[]
}

/** Compiles `schema`; call it at start-up (module load), never per request. */
export function compileChecker<T extends TSchema>(schema: T): SchemaChecker<T> {
  const compiled = TypeCompiler.Compile(schema)
  return {
    check: (value): value is Static<T> => compiled.Check(value),
    failures: (value) => [...compiled.Errors(value)].map((error) => failureOf(mostSpecific(error))),
  }
}

// A union reports one error at its own path; the variant that got furthest into the value says more
// (`upper[2]` is not a hash, rather than `upper` is neither an array nor null).
function mostSpecific(error: ValueError): ValueError {
  let best = error
  for (const variant of error.errors) {
    const first = variant.First()
    if (first === undefined) continue
    const inner = mostSpecific(first)
    if (inner.path.length > best.path.length) best = inner
  }
  return best
}

function failureOf(error: ValueError): SchemaFailure {
  const description = error.schema.description
  return {
    path: error.path,
    key: decodeSegment(error.path.split('/')[1] ?? ''),
    expected: typeof description === 'string' ? description : error.message.replace(/^Expected /, ''),
    received: error.value,
  }
}

/** Where a failure is, for a message: `upper[2]`, or `root` for the whole value and before an index (`root[0]`). */
export function placeOf(failure: SchemaFailure, root: string): string {
  if (failure.path === '') return root
  let place = ''
  for (const segment of failure.path.slice(1).split('/').map(decodeSegment)) {
    if (/^[0-9]+$/.test(segment)) place += `[${segment}]`
    else place += place === '' ? segment : `.${segment}`
  }
  return place.startsWith('[') ? `${root}${place}` : place
}

/** A received value for a message: JSON, cut short, `nothing` when absent. */
export function shown(value: unknown, max = 100): string {
  if (value === undefined) return 'nothing'
  const text = preview(value, max + 1, PREVIEW_DEPTH)
  return text.length > max ? `${text.slice(0, max)}…` : text
}

// Levels of a received value a message shows; deeper arrays and objects are `[…]` and `{…}`.
const PREVIEW_DEPTH = 4

// JSON text of a received value, about `budget` characters at most: it reads no more of the value
// than it shows, and recurses `depth` levels at most (JSON.stringify of a body nested thousands
// deep overflowed the stack, and of a long array built megabytes to show a hundred characters).
function preview(value: unknown, budget: number, depth: number): string {
  if (typeof value === 'string') return JSON.stringify(value.length > budget ? value.slice(0, budget) : value)
  if (typeof value !== 'object' || value === null) return String(value)
  const array = Array.isArray(value)
  if (depth === 0) return array ? '[…]' : '{…}'
  let text = ''
  const add = (part: string): void => {
    text += text === '' ? part : `,${part}`
  }
  if (array)
    for (let index = 0; index < value.length && text.length <= budget; index++) add(preview(value[index], budget - text.length, depth - 1))
  else
    for (const key of Object.keys(value)) {
      if (text.length > budget) break
      add(`${JSON.stringify(key)}:${preview((value as Record<string, unknown>)[key], budget - text.length, depth - 1)}`)
    }
  return array ? `[${text}]` : `{${text}}`
}

/** `Expected <place> to be <expected>, received <value>`. */
export function failureMessage(failure: SchemaFailure, root: string): string {
  return `Expected ${placeOf(failure, root)} to be ${failure.expected}, received ${shown(failure.received)}`
}

// JSON pointer escapes: ~1 is '/', ~0 is '~'.
function decodeSegment(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~')
}
