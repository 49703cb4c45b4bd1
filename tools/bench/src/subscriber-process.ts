// Child process: N event-stream subscribers on loopback, recording for every announced block how
// many subscribers received it and when the last one did (wall-clock ms at the chunk's arrival).
// Raw sockets with a hand-written request: Node's HTTP client parser and stream machinery per
// chunk would make the subscribers' own process most of the latency being measured.
import { connect, type Socket } from 'node:net'
import { fail, send, serve } from './child.js'
import { wallNow } from './timestamped-store.js'

interface Receipt {
  count: number
  last: number
}

// In a frame, the header's last key is its hash: the 43 characters before this marker.
const marker = '"},"powHash"'

function main(): void {
  const url = new URL(process.argv[2] ?? '')
  const count = Number(process.argv[3] ?? 1000)
  const receipts = new Map<string, Receipt>()
  const sockets: Socket[] = []
  const request = `GET ${url.pathname} HTTP/1.1\r\nhost: ${url.host}\r\naccept: text/event-stream\r\n\r\n`
  let connected = 0
  let closing = false
  for (let index = 0; index < count; index += 1) {
    const socket = connect({ host: url.hostname, port: Number(url.port) }, () => socket.write(request))
    socket.setEncoding('latin1')
    let rest = ''
    let headersSeen = false
    socket.on('data', (chunk: string) => {
      const at = wallNow()
      let text = rest + chunk
      if (!headersSeen) {
        const end = text.indexOf('\r\n\r\n')
        if (end < 0) {
          rest = text
          return
        }
        if (!text.startsWith('HTTP/1.1 200')) {
          fail(new Error(`subscriber ${index} got ${text.slice(0, text.indexOf('\r\n'))}`))
          return
        }
        headersSeen = true
        connected += 1
        if (connected === count) send({ type: 'connected', count })
        text = text.slice(end + 4)
      }
      // Chunked transfer framing sits between frames; a frame is never split into two chunks.
      let end = text.indexOf('\n\n')
      while (end >= 0) {
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
    socket.on('error', (error) => {
      if (!closing) fail(error)
    })
    sockets.push(socket)
  }
  serve((message) => {
    if (message.type === 'report') {
      send({ type: 'report', receipts: [...receipts].map(([hash, r]) => [hash, r.count, r.last]), open: sockets.filter((s) => !s.destroyed).length })
    } else if (message.type === 'close') {
      closing = true
      for (const socket of sockets) socket.destroy()
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
