import { request } from 'node:http'
import t from 'tap'
import { send, startNode } from '../fixtures/node.js'

t.test('a body over 2 MiB is 413 whether its length is declared or streamed', async (t) => {
  const server = await startNode(t, { data: t.testdir(), network: 'development' })
  const url = new URL(`${server.url}/chain/0.0/development/chain/0/block/branch`)
  const status = await new Promise<number>((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } },
      (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      },
    )
    req.on('error', reject)
    const chunk = Buffer.alloc(256 * 1024, 0x20)
    let sent = 0
    const pump = (): void => {
      while (sent < 12) {
        sent++
        if (!req.write(chunk)) return void req.once('drain', pump)
      }
      req.end()
    }
    pump()
  })
  t.equal(status, 413, 'chunked, no content-length')
  const declared = await send(url.href, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: Buffer.alloc(2 * 1024 * 1024 + 1, 0x20),
  })
  t.equal(declared.status, 413, 'one byte over the limit')
  const atLimit = await send(url.href, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: Buffer.concat([Buffer.from('{"upper":[]}'), Buffer.alloc(2 * 1024 * 1024 - 12, 0x20)]),
  })
  t.equal(atLimit.status, 404, 'exactly 2 MiB is read (and matches nothing)')
})
