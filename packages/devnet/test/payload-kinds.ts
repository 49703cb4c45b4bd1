import t from 'tap'
import { createAccountPool, type PayloadContext, syntheticPayload } from '../src/payload.js'
import { createRandom } from '../src/random.js'
import { decoded } from './fixtures/real-payloads.js'

interface Output {
  reqKey: string
  events: Array<{ params: unknown[]; name: string; module: { namespace: string | null; name: string } }>
  continuation: { pactId: string; step: number; yield: { provenance: { targetChainId: string } } | null } | null
}
interface Command {
  meta: { chainId: string; sender: string }
  payload: { exec?: { code: string }; cont?: { pactId: string; step: number } }
  signers: unknown[]
}

const context = (network: string, chainId: number, height: number): PayloadContext => ({
  network,
  chainId,
  height,
  parent: Buffer.alloc(32, height & 0xff),
  creationTime: 1_700_000_000_000_000 + height * 30_000_000,
})

// Payloads of two heights' worth of chains 0-3 of development, in turn, as the braid mines them.
function minedTexts(seed: string, heights = 40): Array<{ chain: number; outputs: string[]; commands: Command[] }> {
  const random = createRandom(seed)
  const pool = createAccountPool(random)
  const blocks = []
  for (let height = 1; height <= heights; height++) {
    for (const chain of [0, 1, 2, 3]) {
      const payload = syntheticPayload(random, pool, context('development', chain, height))
      blocks.push({
        chain,
        outputs: payload.transactions.map(([, output]) => Buffer.from(output, 'base64url').toString('utf8')),
        commands: payload.transactions.map(([tx]) => JSON.parse(decoded(tx).cmd as string) as Command),
      })
    }
  }
  return blocks
}

const name = (event: Output['events'][number]) =>
  `${event.module.namespace === null ? '' : `${event.module.namespace}.`}${event.module.name}.${event.name}`

t.test("a cross-chain transfer's second step follows its first on the target chain with the same pact id and amount", async (t) => {
  const burns = new Map<string, { target: number; amount: unknown; sender: string; receiver: string }>()
  let resumed = 0
  for (const { chain, outputs, commands } of minedTexts('cross-chain', 60)) {
    outputs.forEach((text, at) => {
      const output = JSON.parse(text) as Output
      const command = commands[at]!
      if (output.continuation?.step === 0) {
        t.equal(output.continuation.pactId, output.reqKey, 'the first step names its own request key')
        const burn = output.events.find((event) => name(event) === 'coin.TRANSFER' && event.params[1] === '')!
        const xchain = output.events.find((event) => name(event) === 'coin.TRANSFER_XCHAIN')!
        const yielded = output.events.find((e) => e.name === 'X_YIELD')!.params[2] as unknown[]
        t.same(xchain.params.slice(0, 3), [burn.params[0], yielded[1], burn.params[2]])
        t.equal(output.continuation.yield!.provenance.targetChainId, xchain.params[3])
        burns.set(output.reqKey, {
          target: Number(xchain.params[3]),
          amount: burn.params[2],
          sender: burn.params[0] as string,
          receiver: '',
        })
      }
      if (output.continuation?.step === 1) {
        resumed++
        const burn = burns.get(output.continuation.pactId)
        t.ok(burn, 'the pact id is an earlier first step')
        t.equal(chain, burn?.target, 'on the target chain')
        t.same(command.payload.cont?.pactId, output.continuation.pactId)
        t.same(command.signers, [])
        t.equal(at, 0, 'the first transaction of its block')
        const mint = output.events.find((event) => name(event) === 'coin.TRANSFER' && event.params[0] === '')!
        t.equal(mint.params[2], burn?.amount, 'the same amount')
        t.ok(output.events.some((event) => name(event) === 'coin.TRANSFER_XCHAIN_RECD'))
        t.ok(output.events.some((event) => name(event) === 'pact.X_RESUME'))
      }
    })
  }
  t.ok(burns.size >= 10, `${burns.size} first steps`)
  t.ok(resumed >= 5, `${resumed} second steps`)
})

t.test('another fungible writes {"decimal": ...} amounts and a module call emits an event that is not a transfer', async (t) => {
  const texts = minedTexts('kinds').flatMap((block) => block.outputs)
  const token = texts.filter((text) => text.includes('"name":"weft-token"'))
  t.ok(token.length > 5, `${token.length} token transfers`)
  for (const text of token)
    t.match(text, /"params":\["k:[0-9a-f]{64}","k:[0-9a-f]{64}",\{"decimal":"[0-9]+\.[0-9]{30}"\}\],"name":"TRANSFER"/)
  const entries = texts.filter((text) => text.includes('"name":"ENTRY_SET"'))
  t.ok(entries.length > 5, `${entries.length} registry events`)
  for (const text of entries)
    t.match(text, /"params":\["[0-9a-f]{16}",\{"int":[0-9]+\}\],"name":"ENTRY_SET","module":\{"namespace":"free","name":"registry"\}/)
})

t.test('amounts carry digits a double cannot: exponent forms, 16 significant digits and {"decimal": ...} past 2^53', async (t) => {
  const texts = minedTexts('amounts', 80).flatMap((block) => block.outputs)
  const amounts = texts.flatMap((text) =>
    [...text.matchAll(/"name":"coin"\}[^{]*|"params":\["[^"]*","[^"]*",([^\]]+)\],"name":"TRANSFER","module":\{"namespace":null/g)].flatMap(
      (m) => (m[1] === undefined ? [] : [m[1]]),
    ),
  )
  t.ok(
    amounts.some((text) => /^[0-9]\.[0-9]+e-[0-9]+$/.test(text)),
    'exponent notation',
  )
  const long = amounts.filter((text) => /^[0-9]+\.[0-9]+$/.test(text) && text.replace('.', '').replace(/^0+/, '').length === 16)
  t.ok(long.length > 0, 'bare numbers of 16 significant digits')
  t.ok(
    long.some((text) => String(JSON.parse(text)) !== text),
    'some of which a double does not keep',
  )
  t.ok(
    amounts.some((text) => text.startsWith('{"decimal":"')),
    'decimals past 2^53',
  )
})

t.test('the same seed gives the same payloads, cross-chain steps included', async (t) => {
  t.same(minedTexts('again', 20), minedTexts('again', 20))
})

t.test('a one-chain network makes no cross-chain transfers; an unknown network name neither', async (t) => {
  for (const network of ['test-singleton', 'not-a-network']) {
    const random = createRandom(network)
    const pool = createAccountPool(random)
    let codes = ''
    for (let height = 1; height <= 100; height++) {
      for (const [tx] of syntheticPayload(random, pool, context(network, 0, height)).transactions) codes += decoded(tx).cmd as string
    }
    t.notMatch(codes, /transfer-crosschain/, network)
    t.match(codes, /coin\.transfer-create/, network)
  }
})
