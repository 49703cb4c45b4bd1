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

/** The miner reward of every devnet block's coinbase, in KDA. */
export const COINBASE_REWARD = 0.9856
/** Gas price of every synthetic transaction, in KDA per unit of gas. */
export const GAS_PRICE = 1e-8

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64url')
const hashText = (text: string): string => createHash('blake2s256').update(text).digest('base64url')
// A stand-in for the coin module's hash, which real events carry (not the real module's hash).
const coinModuleHash = hashText('weft-devnet coin module')

/** A `coin.TRANSFER` event as the real node writes it in outputs: sender, receiver and a decimal amount ("" sends for the coinbase). */
export function transferEvent(sender: string, receiver: string, amount: number): Record<string, unknown> {
  return { params: [sender, receiver, amount], name: 'TRANSFER', module: { namespace: null, name: 'coin' }, moduleHash: coinModuleHash }
}

// A decimal amount without the float noise of its arithmetic (gas x price).
const decimal = (value: number, places: number): number => Number(value.toFixed(places))

/**
 * A payload with outputs of 0 to `maxTransactions` synthetic transactions, shaped like the real
 * network's: commands with their meta and signers, outputs with gas, logs, `coin.TRANSFER` events and
 * tx ids, and a coinbase that pays the miner with its own TRANSFER event. The hashes are computed by
 * @weft/block, so the payload is valid for a header that names it.
 */
export function syntheticPayload(random: Random, pool: AccountPool, context: PayloadContext, maxTransactions = 6): PayloadWithOutputs {
  // Most real blocks are empty: about 40% here, the rest 1 to maxTransactions transactions.
  const count = maxTransactions === 0 || random.chance(0.4) ? 0 : random.between(1, maxTransactions)
  const miner = `k:${random.pick(pool.miners)}`
  // Tx ids grow with height so that they look like a running counter without keeping state.
  const baseTxId = context.height * (maxTransactions + 2)
  const transactions: Array<[string, string]> = []
  for (let i = 0; i < count; i++) transactions.push(syntheticTransaction(random, pool, context, miner, baseTxId + 1 + i))
  const minerData = JSON.stringify({ account: miner, predicate: 'keys-all', 'public-keys': [miner.slice(2)] })
  const coinbase = JSON.stringify({
    gas: 0,
    result: { status: 'success', data: 'Write succeeded' },
    reqKey: b64(JSON.stringify(encodeHash(context.parent))),
    logs: random.bytes(32).toString('base64url'),
    events: [transferEvent('', miner, COINBASE_REWARD)],
    metaData: null,
    continuation: null,
    txId: baseTxId,
  })
  return withPayloadHashes({ transactions, minerData: b64(minerData), coinbase: b64(coinbase) })
}

interface Call {
  code: string
  clist: Array<{ args: unknown[]; name: string }>
  data: Record<string, unknown>
  gasLimit: number
  // The transfer a successful call makes, if any.
  transfer?: readonly [string, string, number]
}

function syntheticCall(random: Random, pool: AccountPool, sender: string): Call {
  const receiver = `k:${random.pick(pool.keys)}`
  const gas = { args: [], name: 'coin.GAS' }
  const kind = random.int(10)
  if (kind < 6) {
    const amount = decimal(random.between(1, 500000) / 1000, 3)
    const clist = [gas, { args: [sender, receiver, amount], name: 'coin.TRANSFER' }]
    return {
      code: `(coin.transfer "${sender}" "${receiver}" ${amount})`,
      clist,
      data: {},
      gasLimit: 600,
      transfer: [sender, receiver, amount],
    }
  }
  if (kind < 8) {
    const amount = decimal(random.between(1, 100000) / 100, 2)
    const clist = [gas, { args: [sender, receiver, amount], name: 'coin.TRANSFER' }]
    const data = { ks: { keys: [receiver.slice(2)], pred: 'keys-all' } }
    const code = `(coin.transfer-create "${sender}" "${receiver}" (read-keyset "ks") ${amount})`
    return { code, clist, data, gasLimit: 2500, transfer: [sender, receiver, amount] }
  }
  return { code: `(free.registry.set-entry "${random.hex(16)}" ${random.between(0, 99999)})`, clist: [gas], data: {}, gasLimit: 10000 }
}

function syntheticTransaction(random: Random, pool: AccountPool, context: PayloadContext, miner: string, txId: number): [string, string] {
  const key = random.pick(pool.keys)
  const sender = `k:${key}`
  const seconds = Math.floor(context.creationTime / 1e6) - random.between(5, 600)
  const call = syntheticCall(random, pool, sender)
  const cmd = JSON.stringify({
    networkId: context.network,
    payload: { exec: { data: call.data, code: call.code } },
    signers: [{ pubKey: key, clist: call.clist }],
    meta: { creationTime: seconds, ttl: 28800, gasLimit: call.gasLimit, chainId: String(context.chainId), gasPrice: GAS_PRICE, sender },
    nonce: JSON.stringify(new Date(seconds * 1000).toISOString()),
  })
  const hash = hashText(cmd)
  const transaction = JSON.stringify({ hash, sigs: [{ sig: random.hex(128) }], cmd })
  // About one transaction in twelve fails, as some real ones do, and still pays its whole gas limit.
  const failed = random.chance(1 / 12)
  const gas = failed ? call.gasLimit : random.between(Math.floor(call.gasLimit / 3), call.gasLimit)
  // The call's transfer, then the gas paid to the miner: the events a real coin transaction emits.
  const events = [
    ...(failed || call.transfer === undefined ? [] : [transferEvent(...call.transfer)]),
    transferEvent(sender, miner, decimal(gas * GAS_PRICE, 12)),
  ]
  const output = JSON.stringify({
    gas,
    result: failed
      ? { status: 'failure', error: { callStack: [], type: 'TxFailure', message: 'Insufficient funds', info: '' } }
      : { status: 'success', data: call.transfer === undefined ? { updated: true } : 'Write succeeded' },
    reqKey: hash,
    logs: random.bytes(32).toString('base64url'),
    events,
    metaData: null,
    continuation: null,
    txId: failed ? null : txId,
  })
  return [b64(transaction), b64(output)]
}
