import { stringifyJsonExact } from '@weft/block'
/** Where the CLI reads and writes: the process's streams in `cli.ts`, buffers in tests. */
export interface CliIo {
  stdout: NodeJS.WritableStream
  stderr: NodeJS.WritableStream & { isTTY?: boolean }
  /** Stops streaming commands (follow, mirror) cleanly, e.g. on SIGINT. */
  signal?: AbortSignal
  env?: Readonly<Record<string, string | undefined>>
}

/**
 * Writes one JSON value as a line (NDJSON), waiting when the stream asks for it (a slow pipe).
 * `featureFlags`, decimal strings in the client's objects, are written as the node serves them:
 * exact JSON integers (they may exceed 2^53).
 */
export function writeLine(stream: NodeJS.WritableStream, value: unknown): Promise<void> {
  return writeText(stream, `${stringifyJsonExact(value)}\n`)
}

/** Writes text, resolving once the stream has taken it or drained. */
export function writeText(stream: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise((resolve) => {
    if (stream.write(text)) resolve()
    else stream.once('drain', resolve)
  })
}
