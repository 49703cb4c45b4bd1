import type { WeftClient } from '../index.js'

/** Records that `chain` was copied up to `height`. */
export type ProgressRecorder = (chain: number, height: number) => void

/**
 * Reports a copy's progress in heights: the total is, over the chains, the upstream head's height
 * less the start height; each chain counts up to its head once, whatever order pages arrive in.
 */
export async function progressRecorder(
  upstream: Pick<WeftClient, 'heads'>,
  starts: ReadonlyMap<number, number>,
  onProgress: (done: number, total: number) => void,
): Promise<ProgressRecorder> {
  const heads = await upstream.heads([...starts.keys()])
  const reached = new Map<number, number>()
  let total = 0
  for (const [chain, start] of starts) total += Math.max(0, (heads.get(chain)?.height ?? start) - start + 1)
  let done = 0
  onProgress(0, total)
  return (chain, height) => {
    const start = starts.get(chain) ?? 0
    const previous = reached.get(chain) ?? start - 1
    const top = Math.min(height, heads.get(chain)?.height ?? height)
    if (top <= previous) return
    done += top - previous
    reached.set(chain, top)
    onProgress(done, total)
  }
}
