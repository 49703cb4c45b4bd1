import { decimalText, type PactDecimal, pactDecimal, pactInteger } from './pact-json.js'
import type { Random } from './random.js'

/** A module as outputs name it. */
export interface ModuleName {
  readonly namespace: string | null
  readonly name: string
}

/** The coin contract. */
export const COIN: ModuleName = { namespace: null, name: 'coin' }
/** A fungible of another module, whose amounts Pact writes as `{"decimal": ...}` (30 places, like free.crankk01's). */
export const DEVNET_TOKEN: ModuleName = { namespace: 'free', name: 'weft-token' }
/** The module of defpact events (X_YIELD, X_RESUME). */
export const PACT: ModuleName = { namespace: null, name: 'pact' }

/** One event as an output carries it, before the output is written as JSON. */
export interface SyntheticEvent {
  readonly params: unknown[]
  readonly name: string
  readonly module: ModuleName
  readonly moduleHash: string
}

/** A guard as Pact writes a keyset. */
export const keysetOf = (account: string): { pred: string; keys: string[] } => ({ pred: 'keys-all', keys: [account.slice(2)] })

/** What a synthetic command does, and what its output says when it succeeds. */
export interface Call {
  readonly code: string
  readonly clist: Array<{ args: unknown[]; name: string }>
  readonly data: Record<string, unknown>
  readonly gasLimit: number
  /** The events of a successful call, before the gas payment. */
  readonly events: (moduleHash: (module: ModuleName) => string) => SyntheticEvent[]
  readonly result: unknown
  /** A cross-chain transfer's first step: its target chain and what the second step needs. */
  readonly crossChain?: { readonly target: number; readonly receiver: string; readonly amount: PactDecimal }
}

// The fungible's qualified name, as commands call it.
const TOKEN = `${DEVNET_TOKEN.namespace}.${DEVNET_TOKEN.name}`

/** An event of `module` with these parameters. */
export function event(module: ModuleName, name: string, params: unknown[], moduleHash: (module: ModuleName) => string): SyntheticEvent {
  return { params, name, module, moduleHash: moduleHash(module) }
}

// A coin amount: mostly 3 places; one in eight with 12 places and 16 significant digits (past a
// double's precision, still a bare JSON number); one in sixteen past 2^53 ({"decimal": ...}).
function coinAmount(random: Random): PactDecimal {
  const kind = random.int(16)
  if (kind === 0) return { mantissa: 10n ** 20n + BigInt(random.between(1, 1e9)) * 10n ** 9n + BigInt(random.int(1e9)), places: 12 }
  // 8,200 to 9,000 KDA to the 12th place: 16 digits, where a double's step (1.8e-12) loses the last one.
  if (kind < 3) return { mantissa: 82n * 10n ** 14n + BigInt(random.int(2 ** 29)) * 2n ** 20n + BigInt(random.int(2 ** 20)), places: 12 }
  return { mantissa: BigInt(random.between(1, 500000)), places: 3 }
}

// A token amount with 30 places, as free.crankk01 writes them; now and then a large one.
function tokenAmount(random: Random): PactDecimal {
  const whole = random.chance(0.1) ? BigInt(random.between(1, 1e9)) * 10n ** 6n : 0n
  return { mantissa: (whole + BigInt(random.between(1, 1e5))) * 10n ** 25n, places: 30 }
}

/**
 * A command of one of five kinds: a coin transfer, a transfer-create with a keyset, a cross-chain
 * transfer's first step (when `targets` is not empty), a transfer of another fungible, and a module
 * call that emits an event other than a transfer.
 */
export function syntheticCall(random: Random, keys: readonly string[], sender: string, targets: readonly number[], source: number): Call {
  const receiver = `k:${random.pick(keys)}`
  const gas = { args: [], name: 'coin.GAS' }
  const kind = random.int(20)
  if (kind < 11 || (kind >= 12 && kind < 14 && targets.length === 0)) {
    const amount = coinAmount(random)
    const transfer = [sender, receiver, pactDecimal(amount)]
    return {
      code: `(coin.transfer "${sender}" "${receiver}" ${decimalText(amount)})`,
      clist: [gas, { args: transfer, name: 'coin.TRANSFER' }],
      data: {},
      gasLimit: 600,
      events: (hash) => [event(COIN, 'TRANSFER', transfer, hash)],
      result: 'Write succeeded',
    }
  }
  if (kind < 12) {
    const amount: PactDecimal = { mantissa: BigInt(random.between(1, 100000)), places: 2 }
    const transfer = [sender, receiver, pactDecimal(amount)]
    return {
      code: `(coin.transfer-create "${sender}" "${receiver}" (read-keyset "ks") ${decimalText(amount)})`,
      clist: [gas, { args: transfer, name: 'coin.TRANSFER' }],
      data: { ks: { keys: [receiver.slice(2)], pred: 'keys-all' } },
      gasLimit: 2500,
      events: (hash) => [event(COIN, 'TRANSFER', transfer, hash)],
      result: 'Write succeeded',
    }
  }
  if (kind < 14) return crossChainCall(random, sender, receiver, random.pick(targets), source)
  if (kind < 17) {
    const amount = tokenAmount(random)
    const transfer = [sender, receiver, pactDecimal(amount)]
    return {
      code: `(${TOKEN}.transfer "${sender}" "${receiver}" ${decimalText(amount)})`,
      clist: [gas, { args: transfer, name: `${TOKEN}.TRANSFER` }],
      data: {},
      gasLimit: 1500,
      events: (hash) => [event(DEVNET_TOKEN, 'TRANSFER', transfer, hash)],
      result: 'Write succeeded',
    }
  }
  const key = random.hex(16)
  const value = BigInt(random.between(0, 99999))
  return {
    code: `(free.registry.set-entry "${key}" ${value})`,
    clist: [gas],
    data: {},
    gasLimit: 10000,
    events: (hash) => [event({ namespace: 'free', name: 'registry' }, 'ENTRY_SET', [key, pactInteger(value)], hash)],
    result: { updated: true },
  }
}

// coin.transfer-crosschain, step 0: TRANSFER_XCHAIN, the burn (a TRANSFER to "") and X_YIELD.
function crossChainCall(random: Random, sender: string, receiver: string, target: number, source: number): Call {
  const amount: PactDecimal = { mantissa: BigInt(random.between(1, 1e8)), places: 6 }
  const raw = pactDecimal(amount)
  const guard = keysetOf(receiver)
  const args = [sender, receiver, guard, String(target), raw]
  return {
    code: `(coin.transfer-crosschain "${sender}" "${receiver}" (read-keyset "ks") "${target}" ${decimalText(amount)})`,
    clist: [
      { args: [], name: 'coin.GAS' },
      { args: [sender, receiver, raw, String(target)], name: 'coin.TRANSFER_XCHAIN' },
    ],
    data: { ks: guard },
    gasLimit: 1000,
    events: (hash) => [
      event(COIN, 'TRANSFER_XCHAIN', [sender, receiver, raw, String(target)], hash),
      event(COIN, 'TRANSFER', [sender, '', raw], hash),
      event(PACT, 'X_YIELD', [String(target), 'coin.transfer-crosschain', args], hash),
    ],
    result: { amount: raw, receiver, 'source-chain': String(source), 'receiver-guard': guard },
    crossChain: { target, receiver, amount },
  }
}

/** The continuation of a cross-chain transfer's first step, as its output writes it. */
export function yieldContinuation(pactId: string, sender: string, call: Call, source: number, moduleHash: string): unknown {
  const { target, receiver, amount } = call.crossChain!
  const args = [sender, receiver, keysetOf(receiver), String(target), pactDecimal(amount)]
  return {
    executed: null,
    pactId,
    stepHasRollback: false,
    step: 0,
    yield: { data: call.result, source: String(source), provenance: { targetChainId: String(target), moduleHash } },
    continuation: { args, def: 'coin.transfer-crosschain' },
    stepCount: 2,
  }
}
