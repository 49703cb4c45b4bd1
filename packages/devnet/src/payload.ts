import { createHash } from 'node:crypto'
import { type ChainGraph, getNetwork, graphAt, withPayloadHashes } from '@weft/block'
import { encodeHash } from '@weft/hash-text'
import { type NetworkName, networkNames, type PayloadWithOutputs } from '@weft/types'
import { CROSS_CHAIN_GAS_PAYER, continuationPayload, type PendingCrossChain, resumeContinuation, resumeEvents } from './cross-chain.js'
import { type PactDecimal, pactDecimal, type RawJson, stringifyPactJson } from './pact-json.js'
import { COIN, type ModuleName, syntheticCall, yieldContinuation } from './payload-calls.js'
import type { Random } from './random.js'

/**
 * The accounts synthetic transactions move coins between, drawn once per seed so that they recur,
 * and the cross-chain transfers whose first step was made, waiting for their second step, by
 * target chain (`syntheticPayload` adds to them and takes from them).
 */
export interface AccountPool {
  readonly keys: readonly string[]
  readonly miners: readonly string[]
  readonly crossChain: Map<number, PendingCrossChain[]>
}

/** Draws a pool of public keys (64 hex characters): `accounts` traders and `miners` miners. */
export function createAccountPool(random: Random, accounts = 48, miners = 6): AccountPool {
  return {
    keys: Array.from({ length: accounts }, () => random.hex(64)),
    miners: Array.from({ length: miners }, () => random.hex(64)),
    crossChain: new Map(),
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
// Stand-ins for the modules' hashes, which real events carry (not the real modules' hashes).
const moduleHashes = new Map<string, string>()
const moduleHashOf = (module: ModuleName): string => {
  const name = `${module.namespace ?? ''}.${module.name}`
  const known = moduleHashes.get(name)
  if (known !== undefined) return known
  const hash = hashText(`weft-devnet ${module.name === 'coin' ? 'coin module' : name}`)
  moduleHashes.set(name, hash)
  return hash
}

/** A `coin.TRANSFER` event as the real node writes it in outputs: sender, receiver and a decimal amount ("" sends for the coinbase). */
export function transferEvent(sender: string, receiver: string, amount: number | RawJson): Record<string, unknown> {
  return { params: [sender, receiver, amount], name: 'TRANSFER', module: COIN, moduleHash: moduleHashOf(COIN) }
}

// The gas a transaction paid to the miner: gas × GAS_PRICE, exactly (8 places).
const gasPaid = (gas: number): RawJson => pactDecimal({ mantissa: BigInt(gas), places: 8 } satisfies PactDecimal)

// The chains a cross-chain transfer from this block may target: the others of the graph in force
// (each graph's chains listed once).
const graphChains = new WeakMap<ChainGraph, number[]>()
function crossChainTargets(context: PayloadContext): number[] {
  if (!(networkNames as readonly string[]).includes(context.network)) return []
  const graph = graphAt(getNetwork(context.network as NetworkName), context.height)
  let chains = graphChains.get(graph)
  if (chains === undefined) {
    chains = [...graph.keys()].sort((a, b) => a - b)
    graphChains.set(graph, chains)
  }
  return chains.filter((chain) => chain !== context.chainId)
}

/**
 * A payload with outputs of 0 to `maxTransactions` synthetic transactions, shaped like the real
 * network's: commands with their meta and signers, outputs with gas, logs, events (the gas paid to
 * the miner first, then the call's: coin transfers, another fungible's transfers with
 * `{"decimal": ...}` amounts, a module's event, cross-chain transfers' first steps) and tx ids, and
 * a coinbase that pays the miner with its own TRANSFER event. A block with transactions on a chain
 * that a cross-chain transfer targets starts with that transfer's second step (same pact id). The
 * hashes are computed by @weft/block, so the payload is valid for a header that names it.
 */
export function syntheticPayload(random: Random, pool: AccountPool, context: PayloadContext, maxTransactions = 6): PayloadWithOutputs {
  // Most real blocks are empty: about 40% here, the rest 1 to maxTransactions transactions.
  const count = maxTransactions === 0 || random.chance(0.4) ? 0 : random.between(1, maxTransactions)
  const miner = `k:${random.pick(pool.miners)}`
  // Tx ids grow with height so that they look like a running counter without keeping state.
  const baseTxId = context.height * (maxTransactions + 2)
  const targets = count === 0 ? [] : crossChainTargets(context)
  const waiting = pool.crossChain.get(context.chainId)
  const transactions: Array<[string, string]> = []
  for (let i = 0; i < count; i++) {
    const pending = i === 0 ? waiting?.shift() : undefined
    transactions.push(
      pending === undefined
        ? syntheticTransaction(random, pool, context, miner, baseTxId + 1 + i, targets)
        : resumeTransaction(random, pending, context, miner, baseTxId + 1 + i),
    )
  }
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

// The JSON texts of a command (as its transaction carries it) and of its output, both base64url.
function written(transaction: unknown, output: unknown): [string, string] {
  return [b64(JSON.stringify(transaction)), b64(stringifyPactJson(output))]
}

const nonceAt = (seconds: number): string => JSON.stringify(new Date(seconds * 1000).toISOString())

function syntheticTransaction(
  random: Random,
  pool: AccountPool,
  context: PayloadContext,
  miner: string,
  txId: number,
  targets: readonly number[],
): [string, string] {
  const key = random.pick(pool.keys)
  const sender = `k:${key}`
  const seconds = Math.floor(context.creationTime / 1e6) - random.between(5, 600)
  const call = syntheticCall(random, pool.keys, sender, targets, context.chainId)
  const cmd = stringifyPactJson({
    networkId: context.network,
    payload: { exec: { data: call.data, code: call.code } },
    signers: [{ pubKey: key, clist: call.clist }],
    meta: { creationTime: seconds, ttl: 28800, gasLimit: call.gasLimit, chainId: String(context.chainId), gasPrice: GAS_PRICE, sender },
    nonce: nonceAt(seconds),
  })
  const hash = hashText(cmd)
  // About one transaction in twelve fails, as some real ones do, and still pays its whole gas limit.
  const failed = random.chance(1 / 12)
  const gas = failed ? call.gasLimit : random.between(Math.floor(call.gasLimit / 3), call.gasLimit)
  // The gas paid to the miner, then the call's events: the order real coin transactions emit them in.
  const events = [transferEvent(sender, miner, gasPaid(gas)), ...(failed ? [] : call.events(moduleHashOf))]
  if (!failed && call.crossChain !== undefined) {
    const { target, receiver, amount } = call.crossChain
    const queue = pool.crossChain.get(target) ?? []
    queue.push({ pactId: hash, sender, receiver, amount, source: context.chainId, target })
    pool.crossChain.set(target, queue)
  }
  const crossChain = !failed && call.crossChain !== undefined
  return written(
    { hash, sigs: [{ sig: random.hex(128) }], cmd },
    {
      gas,
      result: failed
        ? { status: 'failure', error: { callStack: [], type: 'TxFailure', message: 'Insufficient funds', info: '' } }
        : { status: 'success', data: call.result },
      reqKey: hash,
      logs: random.bytes(32).toString('base64url'),
      events,
      metaData: null,
      continuation: crossChain ? yieldContinuation(hash, sender, call, context.chainId, moduleHashOf(COIN)) : null,
      txId: failed ? null : txId,
    },
  )
}

// A cross-chain transfer's second step on its target chain, paid for by a gas station, unsigned.
function resumeTransaction(
  random: Random,
  pending: PendingCrossChain,
  context: PayloadContext,
  miner: string,
  txId: number,
): [string, string] {
  const seconds = Math.floor(context.creationTime / 1e6) - random.between(5, 600)
  const cmd = JSON.stringify({
    networkId: context.network,
    payload: continuationPayload(pending, random.bytes(120).toString('base64url')),
    signers: [],
    meta: {
      creationTime: seconds,
      ttl: 28800,
      gasLimit: 1100,
      chainId: String(context.chainId),
      gasPrice: GAS_PRICE,
      sender: CROSS_CHAIN_GAS_PAYER,
    },
    nonce: nonceAt(seconds),
  })
  const hash = hashText(cmd)
  const gas = random.between(400, 1100)
  return written(
    { hash, sigs: [], cmd },
    {
      gas,
      result: { status: 'success', data: 'Write succeeded' },
      reqKey: hash,
      logs: random.bytes(32).toString('base64url'),
      events: [transferEvent(CROSS_CHAIN_GAS_PAYER, miner, gasPaid(gas)), ...resumeEvents(pending, moduleHashOf)],
      metaData: null,
      continuation: resumeContinuation(pending),
      txId,
    },
  )
}
