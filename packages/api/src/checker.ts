import type { Profile } from '@weft/types'

/** The kinds of body a node answers that `@weft/types` has a schema for. */
export type BodyKind = 'info' | 'cut' | 'page' | 'update'

/**
 * Checks a body (parsed with plain `JSON.parse`: the schemas describe `featureFlags` as the JSON
 * integer the wire carries) against its schema, throwing `InvalidResponseError` naming the first
 * failures. `responseChecker` of `@weft/api/check` is the one implementation; it is kept behind its
 * own entry so that a client that does not check loads neither TypeBox nor the schemas.
 */
export interface ResponseChecker {
  check(kind: BodyKind, profile: Profile, value: unknown, what: string): void
}
