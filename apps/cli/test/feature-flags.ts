import { decodeHeader, headerToJsonText, parseJsonExact } from '@weft/block'
import { encodeHash } from '@weft/hash-text'
import t from 'tap'
import { weft } from './fixtures/cli.js'
import { filledNode } from './fixtures/nodes.js'

// Real featureFlags exceed what a double holds exactly: since release 3.2 their high 32 bits hold
// fork votes, and mainnet01's first 530,500 blocks carry the miner's nonce there. A mainnet01 devnet
// writes random flags on those heights, as its miners did, most of them above 2^53 (1,000 blocks
// are 100 heights of each of its first 10 chains).
const doubleLimit = 2n ** 53n

for (const profile of ['spec', 'chainweb'] as const) {
  t.test(`${profile} profile: the command line prints featureFlags above 2^53 as the node serves them`, async (t) => {
    const { server } = await filledNode(t, { blocks: 1000, forkRate: 0, profile, network: 'mainnet01' })
    const chain0 = new Map<string, bigint>()
    for await (const item of server.store.range({ chain: 0 }))
      chain0.set(encodeHash(item.hash), decodeHeader(item.headerBinary).featureFlags)
    t.ok(
      [...chain0.values()].some((flags) => flags > doubleLimit),
      'the devnet wrote featureFlags above 2^53',
    )

    // The command line prints each block as the node serves it: the header's text, featureFlags a bare integer.
    const run = await weft(['blocks', '--url', server.url, '--chain', '0'])
    t.equal(run.code, 0, run.stderr)
    const lines = run.stdout.trimEnd().split('\n')
    let blocks = 0
    for await (const _ of server.store.range({ chain: 0 })) blocks += 1
    t.equal(lines.length, blocks, 'one line per block')
    let verbatim = 0
    for (const line of lines) {
      const { header } = parseJsonExact(line) as { header: { hash: string } }
      const served = await server.store.getHeader(Buffer.from(header.hash, 'base64url'))
      if (served !== undefined && line.startsWith(`{"header":${headerToJsonText(served, profile)},`)) verbatim += 1
    }
    t.equal(verbatim, lines.length, "every line starts with the header's exact text")
  })
}
