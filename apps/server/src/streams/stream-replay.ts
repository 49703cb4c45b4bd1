import type { ServerResponse } from 'node:http'

/** The response is closed, ended or its socket destroyed: nothing more can be written to it. */
export function gone(res: ServerResponse): boolean {
  return res.destroyed || res.writableEnded || res.socket?.destroyed === true
}

/**
 * Writes `frames` to `res` in order, waiting for the socket to drain whenever it is full (a replay
 * may be longer than a client's backlog bound). Resolves true once all are written, false when the
 * client went away first or the frames failed (the response is then destroyed).
 */
export async function writeReplay(res: ServerResponse, frames: AsyncIterable<Buffer> | Iterable<Buffer>): Promise<boolean> {
  try {
    for await (const frame of frames) {
      if (gone(res)) return false
      if (!res.write(frame)) await drained(res)
    }
  } catch {
    res.destroy()
    return false
  }
  return !gone(res)
}

// Resolves when `res` can take more, or is gone.
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done)
      res.off('close', done)
      resolve()
    }
    res.on('drain', done)
    res.on('close', done)
  })
}
