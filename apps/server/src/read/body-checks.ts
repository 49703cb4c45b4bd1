import type { Static, TSchema } from '@sinclair/typebox'
import { decodeHash, mapKeyOfHash } from '@weft/hash-text'
import { BranchBounds, PayloadBatch } from '@weft/types'
import { InvalidBodyError } from '../errors.js'
import { compileChecker, failureMessage, type SchemaChecker } from './schema-check.js'

/** Most payloads served by one batch request; later entries are ignored. */
export const PAYLOAD_BATCH_CAP = 1000

/** The bounds of a branch body, decoded, duplicates dropped; refusing more than 32 is the walk's business. */
export interface ParsedBounds {
  readonly upper: Buffer[]
  readonly lower: Buffer[]
}

const branchBounds = compileChecker(BranchBounds)
const payloadBatch = compileChecker(PayloadBatch)

// Checks a parsed JSON body against its schema; the first failure is the message of the 400.
function checked<T extends TSchema>(checker: SchemaChecker<T>, body: unknown): asserts body is Static<T> {
  if (checker.check(body)) return
  const [failure] = checker.failures(body)
  throw new InvalidBodyError(failure === undefined ? 'Expected a well-formed body' : failureMessage(failure, 'the body'))
}

/** Checks a branch body `{"lower": [...], "upper": [...]}` against `BranchBounds` (both optional, null means empty). */
export function parseBranchBounds(body: unknown): ParsedBounds {
  checked(branchBounds, body)
  return { upper: distinct(body.upper ?? []), lower: distinct(body.lower ?? []) }
}

// A body may repeat a bound many times within its 2 MiB: each is looked up once.
function distinct(texts: readonly string[]): Buffer[] {
  const hashes = new Map<string, Buffer>()
  for (const text of texts) {
    const hash = decodeHash(text)
    hashes.set(mapKeyOfHash(hash), hash)
  }
  return [...hashes.values()]
}

/** Checks a payload batch body against `PayloadBatch`: its hashes, at most the first 1000, decoded. */
export function parsePayloadBatch(body: unknown): Buffer[] {
  checked(payloadBatch, body)
  const hashes = Array.isArray(body) ? body : body.hashes
  return hashes.slice(0, PAYLOAD_BATCH_CAP).map(decodeHash)
}
