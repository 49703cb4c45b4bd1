import type { Static, TSchema } from '@sinclair/typebox'
import { type TypeCheck, TypeCompiler } from '@sinclair/typebox/compiler'
import { BlockPage, ChainwebBlockPage, ChainwebHeaderUpdate, Cut, HeaderUpdate, NodeInfo } from '@weft/types'
import type { BodyKind, ResponseChecker } from '../checker.js'
import { InvalidResponseError } from '../errors.js'

// Compiled once per schema, on first use: a compiled check is many times faster than Value.Check.
const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>()

/**
 * Checks `value` against `schema` (TypeBox, compiled once per schema) and returns it typed; throws
 * `InvalidResponseError` naming where the first three failures are (`/items/0/header/height Expected integer`).
 */
export function checkSchema<T extends TSchema>(schema: T, value: unknown, what: string): Static<T> {
  let check = compiled.get(schema)
  if (check === undefined) {
    check = TypeCompiler.Compile(schema)
    compiled.set(schema, check)
  }
  if (check.Check(value)) return value as Static<T>
  const errors = [...check.Errors(value)].map((error) => `${error.path || '/'} ${error.message}`)
  throw new InvalidResponseError(`${what} to match its schema`, `a body where ${errors.slice(0, 3).join('; ')}`, errors)
}

const schemas: Readonly<Record<BodyKind, { spec: TSchema; chainweb: TSchema }>> = {
  info: { spec: NodeInfo, chainweb: NodeInfo },
  cut: { spec: Cut, chainweb: Cut },
  page: { spec: BlockPage, chainweb: ChainwebBlockPage },
  update: { spec: HeaderUpdate, chainweb: ChainwebHeaderUpdate },
}

/** Checks each kind of body against its `@weft/types` schema in the profile spoken. */
export const responseChecker: ResponseChecker = {
  check(kind, profile, value, what) {
    checkSchema(schemas[kind][profile], value, what)
  },
}
