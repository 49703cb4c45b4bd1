import { createFetchTransport } from '@weft/api'

// The cluster check reads nodes and HAProxy with @weft/api's fetch transport, as the client does.
const { send, open } = createFetchTransport()

/** GET that must answer 2xx within `timeout` ms; resolves with the body's text. Another status is `WeftHttpError`, none `WeftNetworkError`. */
export async function getOk(url: string, timeout = 30_000): Promise<string> {
  const answer = await send({ url, signal: AbortSignal.timeout(timeout) })
  return Buffer.from(answer.body).toString('utf8')
}

/** Whether GET `url` answers 2xx now (false on any failure). */
export async function isOk(url: string, timeout = 5_000): Promise<boolean> {
  try {
    await getOk(url, timeout)
    return true
  } catch {
    return false
  }
}

export { open }
