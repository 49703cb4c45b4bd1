import { payloadHashesMatch, txCount } from '@weft/block'
import t from 'tap'
import { COINBASE_REWARD, createAccountPool, GAS_PRICE, type PayloadContext, syntheticPayload } from '../src/payload.js'
import { createRandom } from '../src/random.js'
import { decoded, realPayloads } from './fixtures/real-payloads.js'

const unpaddedBase64url = /^[A-Za-z0-9_-]+$/
const decode = (text: string): unknown => JSON.parse(Buffer.from(text, 'base64url').toString('utf8'))
const context = (height: number): PayloadContext => ({
  network: 'development',
  chainId: 7,
  height,
  parent: Buffer.alloc(32, height & 0xff),
  creationTime: 1_700_000_000_000_000 + height,
})

t.test('synthetic payloads have correct hashes and JSON texts in unpadded base64url', async (t) => {
  const random = createRandom('payloads')
  const pool = createAccountPool(random)
  const counts = new Set<number>()
  const problems: string[] = []
  for (let height = 1; height <= 300; height++) {
    const payload = syntheticPayload(random, pool, context(height))
    counts.add(txCount(payload))
    if (!payloadHashesMatch(payload)) problems.push(`height ${height}: hashes do not match`)
    for (const text of [payload.minerData, payload.coinbase, ...payload.transactions.flat()]) {
      if (!unpaddedBase64url.test(text)) problems.push(`height ${height}: ${text.slice(0, 20)} is not unpadded base64url`)
      decode(text) // throws unless JSON
    }
  }
  t.same(problems, [])
  t.ok(counts.has(0), 'some blocks are empty')
  t.ok(
    [...counts].every((n) => n >= 0 && n <= 6),
    `at most 6 transactions: ${[...counts].join()}`,
  )
  t.ok(counts.size >= 5, 'transaction counts vary')
})

t.test("transactions look like the real network's commands and results", async (t) => {
  const random = createRandom('shape')
  const pool = createAccountPool(random, 4, 2)
  let payload = syntheticPayload(random, pool, context(10))
  while (payload.transactions.length === 0) payload = syntheticPayload(random, pool, context(10))
  const [tx, output] = payload.transactions[0]!
  const command = decode(tx) as { hash: string; sigs: Array<{ sig: string }>; cmd: string }
  t.match(command.hash, /^[A-Za-z0-9_-]{43}$/)
  t.match(command.sigs[0]!.sig, /^[0-9a-f]{128}$/)
  const cmd = JSON.parse(command.cmd) as {
    networkId: string
    meta: { chainId: string; sender: string }
    payload: { exec: { code: string } }
  }
  t.equal(cmd.networkId, 'development')
  t.equal(cmd.meta.chainId, '7')
  t.ok(pool.keys.some((key) => cmd.meta.sender === `k:${key}`))
  t.match(cmd.payload.exec.code, /^\(/)
  const result = decode(output) as { reqKey: string; gas: number; txId: number | null }
  t.equal(result.reqKey, command.hash, 'the output names its command')
  t.ok(result.gas > 0)
  const miner = decode(payload.minerData) as { account: string; 'public-keys': string[] }
  t.ok(pool.miners.includes(miner['public-keys'][0]!))
  t.equal(miner.account, `k:${miner['public-keys'][0]}`)
  const coinbase = decode(payload.coinbase) as { reqKey: string; txId: number }
  t.equal(
    JSON.parse(Buffer.from(coinbase.reqKey, 'base64url').toString()),
    Buffer.alloc(32, 10).toString('base64url'),
    'the coinbase names the parent, as on the real network',
  )
  t.equal(coinbase.txId, 10 * 8)
})

t.test('every kind of transaction and result turns up', async (t) => {
  const random = createRandom('kinds')
  const pool = createAccountPool(random)
  const codes = new Set<string>()
  const statuses = new Set<string>()
  for (let height = 1; height <= 200; height++) {
    for (const [tx, output] of syntheticPayload(random, pool, context(height)).transactions) {
      const cmd = JSON.parse((decode(tx) as { cmd: string }).cmd) as { payload: { exec: { code: string } } }
      codes.add(cmd.payload.exec.code.split(' ')[0]!)
      statuses.add((decode(output) as { result: { status: string } }).result.status)
    }
  }
  t.same([...codes].sort(), [
    '(coin.transfer',
    '(coin.transfer-create',
    '(coin.transfer-crosschain',
    '(free.registry.set-entry',
    '(free.weft-token.transfer',
  ])
  t.same([...statuses].sort(), ['failure', 'success'])
})

t.test('with no transactions allowed every payload is empty', async (t) => {
  const random = createRandom('empty')
  const payload = syntheticPayload(random, createAccountPool(random), context(1), 0)
  t.same(payload.transactions, [])
  t.ok(payloadHashesMatch(payload))
})

// Every key of an object and of the objects under it, as paths in order ("meta.gasLimit"); arrays by their first element.
function shape(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.length === 0 ? [] : shape(value[0], `${path}[]`)
  if (typeof value !== 'object' || value === null) return []
  return Object.entries(value).flatMap(([key, inner]) => [`${path}${key}`, ...shape(inner, `${path}${key}.`)])
}

t.test("payloads have the real network's shape, key for key", async (t) => {
  const random = createRandom('real-shape')
  const pool = createAccountPool(random)
  let payload = syntheticPayload(random, pool, context(10))
  while (payload.transactions.length === 0) payload = syntheticPayload(random, pool, context(10))
  const real = realPayloads.find((p) => p.transactions.length > 0)!
  t.same(Object.keys(payload), Object.keys(real), 'payload keys')
  t.same(shape(decoded(payload.minerData)), shape(decoded(real.minerData)), 'miner data')
  const [tx, output] = payload.transactions[0]!
  const [realTx, realOutput] = real.transactions[0]!
  t.same(Object.keys(decoded(tx)), Object.keys(decoded(realTx)), 'transaction: hash, sigs, cmd')
  const cmd = (text: string) => JSON.parse(decoded(text).cmd as string)
  // The real vectors' transfers carry no keyset data; the devnet's transfer-create does.
  t.same(
    shape(cmd(tx)).filter((key) => !key.startsWith('payload.exec.data.')),
    shape(cmd(realTx)),
    'command: networkId, payload, signers, meta, nonce',
  )
  // The vectors predate events (2020); outputs have carried them after logs since.
  const withEvents = (keys: string[]) => keys.flatMap((key) => (key === 'logs' ? [key, 'events'] : [key]))
  t.same(Object.keys(decoded(output)), withEvents(Object.keys(decoded(realOutput))), 'output keys')
  t.same(Object.keys(decoded(payload.coinbase)), withEvents(Object.keys(decoded(real.coinbase))), 'coinbase keys')
})

t.test('the gas, transfers and the coinbase each emit a coin.TRANSFER with sender, receiver and a decimal amount', async (t) => {
  const random = createRandom('transfers')
  const pool = createAccountPool(random)
  const problems: string[] = []
  let transfers = 0
  for (let height = 1; height <= 100; height++) {
    const payload = syntheticPayload(random, pool, context(height))
    const miner = decoded(payload.minerData).account as string
    const coinbase = decoded(payload.coinbase) as { events: Array<{ params: unknown[]; name: string; module: unknown }> }
    t.same(
      coinbase.events.map((event) => [event.name, event.module, event.params]),
      [['TRANSFER', { namespace: null, name: 'coin' }, ['', miner, COINBASE_REWARD]]],
    )
    for (const [tx, out] of payload.transactions) {
      const sender = (JSON.parse(decoded(tx).cmd as string) as { meta: { sender: string } }).meta.sender
      const output = decoded(out) as { gas: number; events: Array<{ params: unknown[]; name: string; module: { name: string } }> }
      const gasEvent = output.events[0]!
      if (gasEvent.params.join() !== [sender, miner, Number((output.gas * GAS_PRICE).toFixed(12))].join())
        problems.push(`height ${height}: the first event does not pay the gas to the miner`)
      for (const event of output.events.filter((event) => event.name === 'TRANSFER' && event.module.name === 'coin')) {
        if (event.params.length !== 3 || typeof event.params[0] !== 'string' || typeof event.params[1] !== 'string')
          problems.push(`height ${height}: ${JSON.stringify(event)}`)
      }
      if (output.events.length === 2 && output.events[1]!.module.name === 'coin') transfers++
    }
  }
  t.same(problems, [])
  t.ok(transfers > 20, `${transfers} transfers between accounts`)
})
