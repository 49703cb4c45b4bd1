// Child process: N event-stream subscribers on loopback, recording for every announced block how
// many subscribers received it and when the last one did (wall-clock ms at the chunk's arrival).
import { request, type ClientRequest } from 'node:http'
import { fail, send, serve } from './child.js'
import { wallNow } from './timestamped-store.js'

interface Receipt {
  count: number
  last: number
}

const marker = '"},"powHash"'

function main(): void {
  const url = process.argv[2] ?? ''
  const count = Number(process.argv[3] ?? 1000)
  const receipts = new Map<string, Receipt>()
  const requests: ClientRequest[] = []
  let connected = 0
  let closing = false
  let ended = 0
  for (let index = 0; index < count; index += 1) {
    const req = request(url, { agent: false, headers: { accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) {
        fail(new Error(`subscriber ${index} got status ${res.statusCode}`))
        return
      }
      connected += 1
      if (connected === count) send({ type: 'connected', count })
      res.setEncoding('latin1')
      let rest = ''
      res.on('data', (chunk: string) => {
        const at = wallNow()
        let text = rest + chunk
        let end = text.indexOf('\n\n')
        while (end >= 0) {
          // The header's last key is its hash: the 43 characters before `"},"powHash"`.
          const tail = text.lastIndexOf(marker, end)
          if (tail > 43) {
            const hash = text.slice(tail - 43, tail)
            const receipt = receipts.get(hash)
            if (receipt === undefined) receipts.set(hash, { count: 1, last: at })
            else {
              receipt.count += 1
              receipt.last = at
            }
          }
          text = text.slice(end + 2)
          end = text.indexOf('\n\n')
        }
        rest = text
      })
      res.on('end', () => {
        ended += 1
      })
    })
    req.on('error', (error) => {
      if (!closing) fail(error)
    })
    req.end()
    requests.push(req)
  }
  serve((message) => {
    if (message.type === 'report') {
      send({ type: 'report', receipts: [...receipts].map(([hash, r]) => [hash, r.count, r.last]), ended })
    } else if (message.type === 'close') {
      closing = true
      for (const req of requests) req.destroy()
      send({ type: 'closed' })
      process.disconnect?.()
    }
  })
}

try {
  main()
} catch (error) {
  fail(error)
}
