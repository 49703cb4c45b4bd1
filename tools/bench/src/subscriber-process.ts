// Child process: N event-stream subscribers on loopback, recording for every announced block how
// many subscribers received it, and when the first and the last one did (wall-clock ms at the read).
// Raw sockets with a hand-written request, read through `onread` into one shared buffer: Node's
// HTTP client parser and its stream machinery per chunk would make the subscribers' own process
// most of the latency being measured.
import { connect, type Socket } from 'node:net'
import { fail, send, serve } from './child.js'
import { wallNow } from './timestamped-store.js'

interface Receipt {
  count: number
  first: number
  last: number
}

// In a frame, the header's last key is its hash: the 43 characters before this marker.
const marker = Buffer.from('"},"powHash"')
const frameEnd = Buffer.from('\n\n')
const headersEnd = Buffer.from('\r\n\r\n')
const HASH_CHARS = 43

async function main(): Promise<void> {
  const url = new URL(process.argv[2] ?? '')
  const count = Number(process.argv[3] ?? 1000)
  const receipts = new Map<string, Receipt>()
  const sockets: Socket[] = []
  const request = `GET ${url.pathname} HTTP/1.1\r\nhost: ${url.host}\r\naccept: text/event-stream\r\n\r\n`
  // Every read of every socket lands here and is parsed before the next one: one buffer serves all.
  const shared = Buffer.allocUnsafe(1 << 16)
  let connected = 0
  let closing = false

  const receive = (hash: string, at: number): void => {
    const receipt = receipts.get(hash)
    if (receipt === undefined) receipts.set(hash, { count: 1, first: at, last: at })
    else {
      receipt.count += 1
      receipt.last = at
    }
  }

  // At most this many connections wait for their response head at once: ten thousand SYNs in one
  // burst overflow the kernel's queues on loopback and come back as resets (a few dozen per run).
  const opening = 256
  let waiting = 0
  const wakeups: Array<() => void> = []
  for (let index = 0; index < count; index += 1) {
    if (waiting >= opening) await new Promise<void>((resolve) => wakeups.push(resolve))
    waiting += 1
    // Bytes of an unfinished frame (or of the response head) from the reads before.
    let rest: Buffer | undefined
    let headersSeen = false
    const onRead = (length: number, buffer: Buffer): boolean => {
      const at = wallNow()
      let text = rest === undefined ? buffer.subarray(0, length) : Buffer.concat([rest, buffer.subarray(0, length)])
      rest = undefined
      if (!headersSeen) {
        const end = text.indexOf(headersEnd)
        if (end < 0) {
          rest = Buffer.from(text)
          return true
        }
        if (text.toString('latin1', 0, 12) !== 'HTTP/1.1 200') {
          fail(new Error(`subscriber ${index} got ${text.toString('latin1', 0, text.indexOf('\r\n'))}`))
          return false
        }
        headersSeen = true
        waiting -= 1
        wakeups.shift()?.()
        connected += 1
        if (connected === count) send({ type: 'connected', count })
        text = text.subarray(end + headersEnd.length)
      }
      // Chunked transfer framing sits between frames; a frame is never split into two chunks.
      let start = 0
      let end = text.indexOf(frameEnd, start)
      while (end >= 0) {
        const tail = text.lastIndexOf(marker, end)
        if (tail - HASH_CHARS >= start) receive(text.toString('latin1', tail - HASH_CHARS, tail), at)
        start = end + frameEnd.length
        end = text.indexOf(frameEnd, start)
      }
      if (start < text.length) rest = Buffer.from(text.subarray(start))
      return true
    }
    const socket = connect({ host: url.hostname, port: Number(url.port), onread: { buffer: shared, callback: onRead } }, () =>
      socket.write(request),
    )
    socket.on('error', (error) => {
      if (!closing) fail(error)
    })
    sockets.push(socket)
  }
  serve((message) => {
    if (message.type === 'report') {
      send({
        type: 'report',
        receipts: [...receipts].map(([hash, r]) => [hash, r.count, r.first, r.last]),
        open: sockets.filter((s) => !s.destroyed).length,
      })
    } else if (message.type === 'close') {
      closing = true
      for (const socket of sockets) socket.destroy()
      send({ type: 'closed' })
      process.disconnect?.()
    }
  })
}

main().catch(fail)
