import type { TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
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
