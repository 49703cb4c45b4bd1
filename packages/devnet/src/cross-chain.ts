import { type PactDecimal, pactDecimal } from './pact-json.js'
import { COIN, event, keysetOf, PACT, type SyntheticEvent } from './payload-calls.js'

/** A cross-chain transfer whose first step is in a block, waiting for its second step on the target chain. */
export interface PendingCrossChain {
  /** The first step's request key, which names the pact. */
  readonly pactId: string
  readonly sender: string
  readonly receiver: string
  readonly amount: PactDecimal
  readonly source: number
  readonly target: number
}

/** The account that pays the gas of second steps, as wallets' gas stations do. */
export const CROSS_CHAIN_GAS_PAYER = 'kadena-xchain-gas'

/** What a second step's command says: a `cont` payload naming the pact, with a proof and no signers. */
export function continuationPayload(pending: PendingCrossChain, proof: string): unknown {
  return { cont: { proof, pactId: pending.pactId, rollback: false, step: 1, data: {} } }
}

/** The events of a second step: the mint (a TRANSFER from ""), TRANSFER_XCHAIN_RECD and X_RESUME. */
export function resumeEvents(pending: PendingCrossChain, moduleHash: (module: typeof COIN) => string): SyntheticEvent[] {
  const amount = pactDecimal(pending.amount)
  const args = [pending.sender, pending.receiver, keysetOf(pending.receiver), String(pending.target), amount]
  return [
    event(COIN, 'TRANSFER', ['', pending.receiver, amount], moduleHash),
    event(COIN, 'TRANSFER_XCHAIN_RECD', ['', pending.receiver, amount, String(pending.source)], moduleHash),
    event(PACT, 'X_RESUME', [String(pending.source), 'coin.transfer-crosschain', args], moduleHash),
  ]
}

/** The continuation a second step's output carries: step 1 of 2 of the same pact, nothing yielded. */
export function resumeContinuation(pending: PendingCrossChain): unknown {
  const args = [pending.sender, pending.receiver, keysetOf(pending.receiver), String(pending.target), pactDecimal(pending.amount)]
  return {
    executed: null,
    pactId: pending.pactId,
    stepHasRollback: false,
    step: 1,
    yield: null,
    continuation: { args, def: 'coin.transfer-crosschain' },
    stepCount: 2,
  }
}
