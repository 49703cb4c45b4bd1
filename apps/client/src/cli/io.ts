/** Where the CLI reads and writes: the process's streams in `cli.ts`, buffers in tests. */
export interface CliIo {
  stdout: NodeJS.WritableStream
  stderr: NodeJS.WritableStream & { isTTY?: boolean }
  /** Stops streaming commands (follow, mirror) cleanly, e.g. on SIGINT. */
  signal?: AbortSignal
  env?: Readonly<Record<string, string | undefined>>
}

// The client keeps featureFlags exact as decimal strings; a line prints them as the node serves them.
const quotedFeatureFlags = /"featureFlags":"([0-9]+)"/g

/**
 * Writes one JSON value as a line (NDJSON), waiting when the stream asks for it (a slow pipe).
 * `featureFlags` are written as the node serves them, exact JSON integers (they may exceed 2^53).
 */
export function writeLine(stream: NodeJS.WritableStream, value: unknown): Promise<void> {
  return writeText(stream, `${JSON.stringify(value).replace(quotedFeatureFlags, '"featureFlags":$1')}\n`)
}

/** Writes text, resolving once the stream has taken it or drained. */
export function writeText(stream: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise((resolve) => {
    if (stream.write(text)) resolve()
    else stream.once('drain', resolve)
  })
}
