import type { TransactionCopy } from '@weft/store'
import { elementTexts, memberText } from '../pact/json-members.js'
import { utcTime } from './detail-bodies.js'

// chainweb-data's `TxDetail` and `TxSummary` (kadena-io/chainweb-api `ChainwebData/TxDetail.hs`,
// `TxSummary.hs`; how chainweb-data fills them: `exec/Chainweb/Server.hs`), written from a stored
// copy's command and result. Values that may hold amounts (`data`, `result`, `continuation`,
// `metadata`, event parameters) are the stored JSON texts, never parsed: every digit is kept.

/** What a continuation's history adds: the first step's code and the request keys of the steps before. */
export interface PactHistory {
  readonly initialCode: string | null
  readonly previousSteps: string[] | null
}

const text = (value: unknown): string => JSON.stringify(value)
const orNull = (raw: string | undefined): string => raw ?? 'null'
// chainweb-data's `fromMaybe`: an absent or null value written as the default.
const nullTo = (raw: string | undefined, fallback: string): string => (raw === undefined || raw === 'null' ? fallback : raw)
const objectText = (members: Array<[string, string]>): string => `{${members.map(([key, value]) => `${text(key)}:${value}`).join(',')}}`

// A top-level member parsed: only numbers and texts chainweb-data reads as such (ttl, gas, the sender).
const parsed = (raw: string | undefined): unknown => (raw === undefined ? undefined : JSON.parse(raw))

interface Parts {
  readonly cmd: string
  readonly meta: string | undefined
  readonly exec: string | undefined
  readonly cont: string | undefined
  readonly result: string | undefined
}

function partsOf(copy: TransactionCopy): Parts {
  const cmd = JSON.parse(orNull(memberText(copy.command, 'cmd'))) as string
  const payload = memberText(cmd, 'payload')
  return {
    cmd,
    meta: memberText(cmd, 'meta'),
    exec: memberText(payload, 'exec'),
    cont: memberText(payload, 'cont'),
    result: memberText(copy.result, 'result'),
  }
}

const creationTime = (meta: string | undefined): string => text(utcTime(Number(parsed(memberText(meta, 'creationTime'))) * 1_000_000))
const succeeded = (result: string | undefined): boolean => parsed(memberText(result, 'status')) === 'success'

/** A `TxSummary`: chain, height, blockHash, creationTime, requestKey, sender, code, continuation, result, initialCode, previousSteps. */
export function txSummary(copy: TransactionCopy, history: PactHistory): string {
  const { meta, exec, result } = partsOf(copy)
  return objectText([
    ['chain', text(copy.block.chain)],
    ['height', text(copy.block.height)],
    ['blockHash', text(copy.block.hash)],
    ['creationTime', creationTime(meta)],
    ['requestKey', text(copy.requestKey)],
    ['sender', orNull(memberText(meta, 'sender'))],
    ['code', orNull(memberText(exec, 'code'))],
    ['continuation', orNull(memberText(copy.result, 'continuation'))],
    ['result', text(succeeded(result) ? 'TxSucceeded' : 'TxFailed')],
    ['initialCode', text(history.initialCode)],
    ['previousSteps', text(history.previousSteps)],
  ])
}

// An event of the output as chainweb-data's `TxEvent`: the qualified name and the exact parameters.
function txEvent(event: string): string {
  const module = memberText(event, 'module')
  const namespace = parsed(memberText(module, 'namespace')) as string | null | undefined
  const name = `${namespace == null ? '' : `${namespace}.`}${parsed(memberText(module, 'name'))}.${parsed(memberText(event, 'name'))}`
  return objectText([
    ['name', text(name)],
    ['params', orNull(memberText(event, 'params'))],
  ])
}

// chainweb-api's `Signer`: addr and scheme when given, pubKey, clist (capabilities, `[]` when none).
function signer(raw: string): string {
  const members: Array<[string, string]> = []
  for (const key of ['addr', 'scheme']) {
    const value = memberText(raw, key)
    if (value !== undefined && value !== 'null') members.push([key, value])
  }
  members.push(['pubKey', orNull(memberText(raw, 'pubKey'))], ['clist', memberText(raw, 'clist') ?? '[]'])
  return objectText(members)
}

/** A `TxDetail`, its fields in the record's order. */
export function txDetail(copy: TransactionCopy, history: PactHistory): string {
  const { cmd, meta, exec, cont, result } = partsOf(copy)
  const success = succeeded(result)
  const verifiers = elementTexts(memberText(cmd, 'verifiers'))
  return objectText([
    ['ttl', orNull(memberText(meta, 'ttl'))],
    ['gasLimit', orNull(memberText(meta, 'gasLimit'))],
    ['gasPrice', orNull(memberText(meta, 'gasPrice'))],
    ['nonce', orNull(memberText(cmd, 'nonce'))],
    ['pactId', orNull(memberText(cont, 'pactId'))],
    ['rollback', orNull(memberText(cont, 'rollback'))],
    ['step', orNull(memberText(cont, 'step'))],
    ['data', orNull(memberText(exec, 'data') ?? memberText(cont, 'data'))],
    ['proof', orNull(memberText(cont, 'proof'))],
    ['gas', orNull(memberText(copy.result, 'gas'))],
    ['result', orNull(memberText(result, success ? 'data' : 'error'))],
    ['logs', nullTo(memberText(copy.result, 'logs'), '""')],
    ['metadata', orNull(memberText(copy.result, 'metaData'))],
    ['continuation', orNull(memberText(copy.result, 'continuation'))],
    ['txid', nullTo(memberText(copy.result, 'txId'), '0')],
    ['chain', text(copy.block.chain)],
    ['height', text(copy.block.height)],
    ['blockTime', text(utcTime(copy.block.creationTime))],
    ['blockHash', text(copy.block.hash)],
    ['creationTime', creationTime(meta)],
    ['requestKey', text(copy.requestKey)],
    ['sender', orNull(memberText(meta, 'sender'))],
    ['code', orNull(memberText(exec, 'code'))],
    ['success', text(success)],
    ['events', `[${elementTexts(memberText(copy.result, 'events')).map(txEvent).join(',')}]`],
    ['initialCode', text(history.initialCode)],
    ['previousSteps', text(history.previousSteps)],
    ['signers', `[${elementTexts(memberText(cmd, 'signers')).map(signer).join(',')}]`],
    ['sigs', memberText(copy.command, 'sigs') ?? '[]'],
    ['verifiers', verifiers.length === 0 ? 'null' : `[${verifiers.join(',')}]`],
  ])
}
