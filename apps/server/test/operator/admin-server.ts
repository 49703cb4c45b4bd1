import { connect } from 'node:net'
import t from 'tap'
import { startNode } from '../fixtures/node.js'

t.test('the admin listener serves GET /snapshot and nothing else, and is off unless asked', async (t) => {
  const off = await startNode(t, { network: 'test-singleton', data: `${t.testdir({ off: {}, on: {} })}/off` })
  t.equal(off.adminUrl, undefined)
  const node = await startNode(t, { network: 'test-singleton', data: off.config.data.replace(/off$/, 'on'), adminPort: 0 })
  t.match(node.adminUrl, /^http:\/\/127\.0\.0\.1:\d+$/)
  const snapshot = await fetch(`${node.adminUrl}/snapshot`)
  t.equal(snapshot.status, 200)
  t.equal(snapshot.headers.get('content-type'), 'application/gzip')
  t.match(snapshot.headers.get('content-disposition'), /^attachment; filename="weft-test-singleton-0\.snapshot\.gz"$/)
  t.ok((await snapshot.arrayBuffer()).byteLength > 100)
  const missing = await fetch(`${node.adminUrl}/info`)
  t.equal(missing.status, 404)
  t.match(await missing.text(), /the admin listener serves GET \/snapshot/)
  const post = await fetch(`${node.adminUrl}/snapshot`, { method: 'POST' })
  t.equal(post.status, 405)
  const publicAddress = await fetch(`${node.url}/snapshot`)
  t.equal(publicAddress.status, 404, 'the public address never offers it')
  // A request target node's parser takes but that is no URL: answered, and the node lives on.
  for (const target of ['//[/info', 'http://[/snapshot']) {
    const answer = await rawExchange(Number(new URL(node.adminUrl!).port), `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)
    t.match(answer, /^HTTP\/1\.1 400 .*Expected a request target that is a URL path/s, target)
  }
  t.equal((await fetch(`${node.url}/health-check`)).status, 200, 'the node still answers')
})

// Writes `request` on a new connection and reads the whole answer, until the server closes it.
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(request))
    let received = ''
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')))
    socket.on('close', () => resolve(received))
    socket.on('error', reject)
  })
}
