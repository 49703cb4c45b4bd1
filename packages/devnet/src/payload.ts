import { createHash } from 'node:crypto'
import { withPayloadHashes } from '@weft/block'
import { encodeHash } from '@weft/hash-text'
import type { PayloadWithOutputs } from '@weft/types'
import type { Random } from './random.js'

/** The accounts synthetic transactions move coins between, drawn once per seed so that they recur. */
export interface AccountPool {
  readonly keys: readonly string[]
  readonly miners: readonly string[]
}

/** Draws a pool of public keys (64 hex characters): `accounts` traders and `miners` miners. */
export function createAccountPool(random: Random, accounts = 48, miners = 6): AccountPool {
  return {
    keys: Array.from({ length: accounts }, () => random.hex(64)),
    miners: Array.from({ length: miners }, () => random.hex(64)),
  }
}

/** Where a synthetic payload goes; its texts mention these, as real ones do. */
export interface PayloadContext {
  readonly network: string
  readonly chainId: number
  readonly height: number
  readonly parent: Uint8Array
  readonly creationTime: number // µs
}

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64url')
const hashText = (text: string): string => createHash('blake2s256').update(text).digest('base64url')

/**
 * A payload with outputs of 0 to `maxTransactions` synthetic transactions, shaped like the real
 * network's: coin transfers and module calls with signatures, results with gas, logs and tx ids.
 * The hashes are computed by @weft/block, so the payload is valid for a header that names it.
 */
export function syntheticPayload(random: Random, pool: AccountPool, context: PayloadContext, maxTransactions = 6): PayloadWithOutputs {
  // Most real blocks are empty: about 40% here, the rest 1 to maxTransactions transactions.
  const count = maxTransactions === 0 || random.chance(0.4) ? 0 : random.between(1, maxTransactions)
  // Tx ids grow with height so that they look like a running counter without keeping state.
  const baseTxId = context.height * (maxTransactions + 2)
  const transactions: Array<[string, string]> = []
  for (let i = 0; i < count; i++) transactions.push(syntheticTransaction(random, pool, context, baseTxId + 1 + i))
  const miner = random.pick(pool.miners)
  const minerData = JSON.stringify({ account: `k:${miner}`, predicate: 'keys-all', 'public-keys': [miner] })
  const coinbase = JSON.stringify({
    gas: 0,
    result: { status: 'success', data: 'Write succeeded' },
    reqKey: b64(JSON.stringify(encodeHash(context.parent))),
    logs: random.bytes(32).toString('base64url'),
    metaData: null,
    continuation: null,
    txId: baseTxId,
  })
  return withPayloadHashes({ transactions, minerData: b64(minerData), coinbase: b64(coinbase) })
}

function syntheticTransaction(random: Random, pool: AccountPool, context: PayloadContext, txId: number): [string, string] {
  const sender = random.pick(pool.keys)
  const receiver = random.pick(pool.keys)
  const seconds = Math.floor(context.creationTime / 1e6) - random.between(5, 600)
  const kind = random.int(10)
  let code: string
  let clist: Array<{ args: unknown[]; name: string }>
  let data: Record<string, unknown> = {}
  let gasLimit = 600
  if (kind < 6) {
    const amount = Number((random.between(1, 500000) / 1000).toFixed(3))
    code = `(coin.transfer "k:${sender}" "k:${receiver}" ${amount})`
    clist = [
      { args: [], name: 'coin.GAS' },
      { args: [`k:${sender}`, `k:${receiver}`, amount], name: 'coin.TRANSFER' },
    ]
  } else if (kind < 8) {
    const amount = Number((random.between(1, 100000) / 100).toFixed(2))
    code = `(coin.transfer-create "k:${sender}" "k:${receiver}" (read-keyset "ks") ${amount})`
    clist = [
      { args: [], name: 'coin.GAS' },
      { args: [`k:${sender}`, `k:${receiver}`, amount], name: 'coin.TRANSFER' },
    ]
    data = { ks: { keys: [receiver], pred: 'keys-all' } }
    gasLimit = 2500
  } else {
    code = `(free.registry.set-entry "${random.hex(16)}" ${random.between(0, 99999)})`
    clist = [{ args: [], name: 'coin.GAS' }]
    gasLimit = 10000
  }
  const cmd = JSON.stringify({
    networkId: context.network,
    payload: { exec: { data, code } },
    signers: [{ pubKey: sender, clist }],
    meta: { creationTime: seconds, ttl: 28800, gasLimit, chainId: String(context.chainId), gasPrice: 1e-8, sender: `k:${sender}` },
    nonce: JSON.stringify(new Date(seconds * 1000).toISOString()),
  })
  const hash = hashText(cmd)
  const transaction = JSON.stringify({ hash, sigs: [{ sig: random.hex(128) }], cmd })
  // About one transaction in twelve fails, as some real ones do, and still pays gas.
  const failed = random.chance(1 / 12)
  const output = JSON.stringify({
    gas: failed ? gasLimit : random.between(Math.floor(gasLimit / 3), gasLimit),
    result: failed
      ? { status: 'failure', error: { message: 'Insufficient funds', type: 'TxFailure' } }
      : { status: 'success', data: kind < 8 ? 'Write succeeded' : { updated: true } },
    reqKey: hash,
    logs: random.bytes(32).toString('base64url'),
    events: failed ? [] : [{ params: [`k:${sender}`, `k:${receiver}`], name: 'TRANSFER', module: { namespace: null, name: 'coin' } }],
    metaData: null,
    continuation: null,
    txId: failed ? null : txId,
  })
  return [b64(transaction), b64(output)]
}
