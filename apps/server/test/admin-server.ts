import t from 'tap'
import { startNode } from './fixtures/node.js'

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
})
