import t from 'tap'
import { weft } from '../fixtures/cli.js'
import { filledNode } from '../fixtures/nodes.js'

t.test('health prints one JSON line, asking the node named by WEFT_URL when --url is absent', async (t) => {
  const { server } = await filledNode(t)
  const health = await weft(['health'], { WEFT_URL: server.url })
  t.equal(health.code, 0, 'WEFT_URL is used when --url is absent')
  t.same(health.lines, [{ healthy: true, message: 'Health check OK.' }])
})
