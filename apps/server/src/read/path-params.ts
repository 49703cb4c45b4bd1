import { decodeHash, isHashText } from '@weft/hash-text'
import { InvalidHashParameterError, RouteNotFoundError } from '../errors.js'

/** Reads the `{chain}` path segment: one of `chains` (the network's newest graph's), else 404 (the path names nothing). */
export function chainParam(chains: ReadonlySet<number>, path: string, text: string | undefined): number {
  if (text === undefined || !/^(0|[1-9][0-9]{0,3})$/.test(text) || !chains.has(Number(text))) throw new RouteNotFoundError(path)
  return Number(text)
}

/** Decodes a hash path segment (400 INVALID_HASH when malformed). */
export function hashParam(text: string): Buffer {
  if (!isHashText(text)) throw new InvalidHashParameterError(text)
  return decodeHash(text)
}
