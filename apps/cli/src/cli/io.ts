import { stringifyJsonExact } from '@weft/api'
import { writeText } from '@weft/command-line'

/**
 * Writes one JSON value as a line (NDJSON), waiting when the stream asks for it (a slow pipe).
 * `featureFlags`, decimal strings in the client's objects, are written as the node serves them:
 * exact JSON integers (they may exceed 2^53).
 */
export function writeLine(stream: NodeJS.WritableStream, value: unknown): Promise<void> {
  return writeText(stream, `${stringifyJsonExact(value)}\n`)
}
