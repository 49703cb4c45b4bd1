import { ClusterCheckError } from './errors.js'

/** One answer, its body as text (the bytes compared are the UTF-8 of the JSON the node wrote). */
export interface Answer {
  readonly status: number
  readonly body: string
}

/** GET with a timeout; network failures reject. */
export async function get(url: string, timeout = 30_000): Promise<Answer> {
  const response = await fetch(url, { signal: AbortSignal.timeout(timeout) })
  return { status: response.status, body: await response.text() }
}

/** GET that must answer 200; resolves with the body. */
export async function getOk(url: string, timeout = 30_000): Promise<string> {
  const answer = await get(url, timeout)
  if (answer.status !== 200) {
    throw new ClusterCheckError(
      'CLUSTER_BAD_ANSWER',
      `Expected 200 from GET ${url}, received ${answer.status}: ${answer.body.slice(0, 200)}`,
    )
  }
  return answer.body
}

/** Whether GET `url` answers 200 now (false on any failure). */
export async function isOk(url: string, timeout = 5_000): Promise<boolean> {
  try {
    return (await get(url, timeout)).status === 200
  } catch {
    return false
  }
}
