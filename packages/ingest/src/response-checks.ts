import type { TSchema } from '@sinclair/typebox'
import { type TypeCheck, TypeCompiler } from '@sinclair/typebox/compiler'
import { BlockPage, ChainwebBlockPage, ChainwebHeaderUpdate, Cut, HeaderUpdate, type Profile } from '@weft/types'
import { UpstreamResponseError } from './errors.js'

/** The schemas an upstream's answers are checked against, when checks are on. */
const schemas = {
  'spec-page': BlockPage,
  'chainweb-page': ChainwebBlockPage,
  'spec-update': HeaderUpdate,
  'chainweb-update': ChainwebHeaderUpdate,
  cut: Cut,
} as const

/** Which schema: a page or an update of a profile, or a cut. */
export type CheckedKind = `${Profile}-page` | `${Profile}-update` | 'cut'

const compiled = new Map<CheckedKind, TypeCheck<TSchema>>()

/**
 * Checks `text` (an upstream's JSON answer) against the `@weft/types` schema of its kind; throws
 * `UpstreamResponseError` naming the first failures. It parses the text once more with plain
 * `JSON.parse` (the schemas describe featureFlags as a number), so it costs a second parse.
 */
export function checkResponse(kind: CheckedKind, text: string, what: string): void {
  let check = compiled.get(kind)
  if (check === undefined) {
    check = TypeCompiler.Compile(schemas[kind])
    compiled.set(kind, check)
  }
  const value: unknown = JSON.parse(text)
  if (check.Check(value)) return
  const failures = [...check.Errors(value)].slice(0, 3).map((error) => `${error.path || '/'} ${error.message}`)
  throw new UpstreamResponseError(`Expected ${what} to match its schema, received a body where ${failures.join('; ')}`)
}
