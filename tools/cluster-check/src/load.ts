import { getOk } from './http.js'
import type { Page } from './pages.js'

/** One request of the steady stream: when it started and ended (performance.now()), and how it went. */
export interface Sample {
  readonly start: number
  readonly end: number
  readonly ok: boolean
  readonly detail: string
}

/** A steady stream of page requests through HAProxy, each answer compared with the reference bytes. */
export interface Load {
  readonly samples: Sample[]
  /** Stops issuing requests and waits for those in flight. */
  stop(): Promise<void>
}

/** Starts `workers` loops, each asking the next of `pages` from `origin` as soon as its previous answer is in. */
export function startLoad(origin: string, pages: readonly Page[], workers: number, timeout: number): Load {
  const samples: Sample[] = []
  let stopping = false
  let turn = 0
  const worker = async (): Promise<void> => {
    while (!stopping) {
      const page = pages[turn++ % pages.length] as Page
      const start = performance.now()
      let ok = false
      let detail = ''
      try {
        ok = (await getOk(`${origin}${page.path}`, timeout)) === page.body
        if (!ok) detail = '200 with other bytes'
      } catch (error) {
        detail =
          error instanceof Error ? `${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ''}` : String(error)
      }
      samples.push({ start, end: performance.now(), ok, detail: ok ? '' : `GET ${page.path}: ${detail}` })
    }
  }
  const running = Array.from({ length: workers }, () => worker())
  return {
    samples,
    stop: async () => {
      stopping = true
      await Promise.all(running)
    },
  }
}

/** Requests and failures among the samples that started at or after `from`. */
export function tally(
  samples: readonly Sample[],
  from = Number.NEGATIVE_INFINITY,
): { requests: number; failures: number; examples: string[] } {
  const after = samples.filter((s) => s.start >= from)
  const failed = after.filter((s) => !s.ok)
  return { requests: after.length, failures: failed.length, examples: [...new Set(failed.map((s) => s.detail))].slice(0, 3) }
}
