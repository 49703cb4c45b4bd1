import type { TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { parseJsonExact } from '@weft/block'
import { InvalidResponseError } from './errors.js'

/** Returns `value` typed as `T`, after checking it against `schema` when checking is on. */
export type ResponseCheck = <T>(schema: TSchema, value: unknown, what: string) => T

/** A check against the `@weft/types` schemas when `validate` is true; a plain cast otherwise. */
export function responseCheck(validate: boolean): ResponseCheck {
  return <T>(schema: TSchema, value: unknown, what: string): T => {
    if (validate && !Value.Check(schema, value)) {
      throw new InvalidResponseError(
        what,
        [...Value.Errors(schema, value)].map((e) => `${e.path || '/'} ${e.message}`),
      )
    }
    return value as T
  }
}

/**
 * Parses a JSON body that holds block headers, `featureFlags` exact: they come back as decimal
 * strings (since release 3.2 they exceed 2^53, which a JSON number loses). When checking is on the
 * body is first checked against `schema` as the wire has it, with `featureFlags` a JSON integer.
 */
export type ExactResponseCheck = <T>(schema: TSchema, text: string | Uint8Array, what: string) => T

/** `ExactResponseCheck` against the `@weft/types` schemas when `validate` is true. */
export function exactResponseCheck(validate: boolean): ExactResponseCheck {
  const check = responseCheck(validate)
  return <T>(schema: TSchema, text: string | Uint8Array, what: string): T => {
    if (validate)
      check(
        schema,
        JSON.parse(typeof text === 'string' ? text : Buffer.from(text.buffer, text.byteOffset, text.byteLength).toString('utf8')),
        what,
      )
    return parseJsonExact(text) as T
  }
}
