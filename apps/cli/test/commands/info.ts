import t from 'tap'
import { weft } from '../fixtures/cli.js'
import { filledNode } from '../fixtures/nodes.js'

t.test('info prints the node information as one JSON line', async (t) => {
  const { server } = await filledNode(t)
  const info = await weft(['info', '--url', server.url, '--validate'])
  t.equal(info.code, 0)
  t.equal(info.lines.length, 1)
  t.match(info.lines[0], { nodeVersion: 'development', nodeNumberOfChains: 20, nodeApiVersion: '0.0' })
})
