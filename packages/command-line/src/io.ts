/** Where a command reads and writes: the process's streams in a bin, buffers in tests. */
export interface CliIo {
  readonly stdout: NodeJS.WritableStream
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number }
  /** Stops long-running commands cleanly, e.g. on SIGINT. */
  readonly signal?: AbortSignal
  readonly env?: Readonly<Record<string, string | undefined>>
}

/** Writes text, resolving once the stream has taken it or drained (a slow pipe). */
export function writeText(stream: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise((resolve) => {
    if (stream.write(text)) resolve()
    else stream.once('drain', resolve)
  })
}
