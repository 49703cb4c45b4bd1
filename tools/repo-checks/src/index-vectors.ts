// Part of `pnpm vectors:check`: indexes the real mainnet payloads of ../shared/vectors/real/kadena-js
// with @weft/index, writes the entries to a LevelDB folder of its own, and checks what the index
// promises: every request key found at its block and position by a range read, every coin.TRANSFER
// event a transfer with its exact amount, and /poll's result for every request key (the function the
// route answers with, given the copy the index confirms) the payload's output with the block's
// metadata. It reads the shared folder at run time only and says plainly when it is absent.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { decodeEntry, deriveEntries, encodeEntries, IndexKind, type IndexOperation, transactionRange } from '@weft/index'
import { withBlockMetadata } from '@weft/server'
import type { PayloadWithOutputs } from '@weft/types'
import { ClassicLevel } from 'classic-level'

const PAYLOADS = 'payloads-with-outputs-3306537-3306636.json'

/** What the check found. */
export interface IndexVectorReport {
  readonly blocks: number
  readonly transactions: number
  readonly found: number
  /** Request keys whose /poll result is the payload's output with its block's metadata. */
  readonly polled: number
  readonly events: number
  readonly transfers: number
  readonly coinTransfers: number
  readonly exactAmounts: number
  readonly bytes: { readonly perTransaction: number; readonly perEvent: number }
  readonly problems: string[]
}

interface Header {
  readonly hash: string
  readonly chainId: number
  readonly height: number
  readonly payloadHash: string
  readonly creationTime: number
  readonly parent: string
}

// Whether two decimal texts (JSON numbers, exponents allowed) have the same exact value.
function sameValue(a: string, b: string): boolean {
  const fraction = (text: string) => {
    const [, sign, whole, part = '', exponent = '0'] = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/.exec(text) ?? []
    if (whole === undefined) return undefined
    const scale = BigInt(part.length) - BigInt(exponent)
    const numerator = BigInt(`${sign}${whole}${part}`)
    return scale >= 0n ? { numerator, scale } : { numerator: numerator * 10n ** -scale, scale: 0n }
  }
  const x = fraction(a)
  const y = fraction(b)
  return x !== undefined && y !== undefined && x.numerator * 10n ** y.scale === y.numerator * 10n ** x.scale
}

// Each coin.TRANSFER amount of an output as written, in order, read from its text by pattern (not by @weft/index).
const coinTransferAmounts = (output: string): string[] =>
  [
    ...output.matchAll(
      /"params":\["(?:[^"\\]|\\.)*","(?:[^"\\]|\\.)*",(\{"decimal":"[^"]*"\}|[-0-9.eE+]+)\],"name":"TRANSFER","module":\{"namespace":null,"name":"coin"\}/g,
    ),
  ].map((match) => match[1]!.replace(/^\{"decimal":"(.*)"\}$/, '$1'))

// Whether /poll's result for a transaction of the block `header` is its output, byte for byte, with the
// block's metadata (in the node's key order) where the output has `"metaData":null`.
function pollMatches(output: string, requestKey: string, header: Header): boolean {
  const block = {
    chain: header.chainId,
    height: header.height,
    hash: header.hash,
    parent: header.parent,
    creationTime: header.creationTime,
  }
  const polled = withBlockMetadata(output, { ...block, canonical: true, depth: 0 })
  const metadata = `"metaData":${JSON.stringify({ blockTime: block.creationTime, prevBlockHash: block.parent, blockHash: block.hash, blockHeight: block.height })}`
  return (
    (JSON.parse(polled) as { reqKey: unknown }).reqKey === requestKey &&
    polled.includes(metadata) &&
    polled.replace(metadata, '"metaData":null') === output
  )
}

/** Indexes the real payloads under `folder` (`kadena-js` of the shared vectors); undefined when they are not there. */
export async function checkIndexVectors(folder: string): Promise<IndexVectorReport | undefined> {
  if (!existsSync(join(folder, PAYLOADS))) return undefined
  const payloads = JSON.parse(readFileSync(join(folder, PAYLOADS), 'utf8')) as PayloadWithOutputs[]
  const headers = new Map<string, Header>()
  for (const file of readdirSync(folder).filter((name) => name.startsWith('header-branch-page'))) {
    for (const header of (JSON.parse(readFileSync(join(folder, file), 'utf8')) as { items: Header[] }).items)
      headers.set(header.payloadHash, header)
  }
  const problems: string[] = []
  const dir = mkdtempSync(join(tmpdir(), 'weft-index-vectors-'))
  const db = new ClassicLevel<Buffer, Buffer>(dir, { keyEncoding: 'buffer', valueEncoding: 'buffer' })
  const counts = { transactions: 0, found: 0, polled: 0, events: 0, transfers: 0, coinTransfers: 0, exactAmounts: 0 }
  const operations: IndexOperation[] = []
  try {
    const blocks = payloads.flatMap((payload) => {
      const header = headers.get(payload.payloadHash)
      if (header === undefined) problems.push(`payload ${payload.payloadHash}: no header names it`)
      return header === undefined
        ? []
        : [
            {
              header,
              payload,
              entries: deriveEntries({
                chain: header.chainId,
                height: header.height,
                hash: Buffer.from(header.hash, 'base64url'),
                payload,
              }),
            },
          ]
    })
    for (const { entries } of blocks) {
      const ops = encodeEntries(entries)
      operations.push(...ops)
      await db.batch(ops.map(({ key, value }) => ({ type: 'put' as const, key, value })))
    }
    for (const { header, payload, entries } of blocks) {
      const outputs = [payload.coinbase, ...payload.transactions.map(([, output]) => output)].map((text) =>
        Buffer.from(text, 'base64url').toString('utf8'),
      )
      for (const [position, [transaction]] of payload.transactions.entries()) {
        counts.transactions++
        const requestKey = (JSON.parse(Buffer.from(transaction, 'base64url').toString('utf8')) as { hash: string }).hash
        const places = []
        for await (const [key, value] of db.iterator(transactionRange(requestKey, header.chainId))) places.push(decodeEntry(key, value))
        const place = places[0]
        if (
          places.length === 1 &&
          place?.kind === 'transaction' &&
          place.block.height === header.height &&
          place.positions.includes(position) &&
          Buffer.from(header.hash, 'base64url').subarray(0, 8).equals(place.block.hashPrefix)
        )
          counts.found++
        else problems.push(`${header.height} #${position} ${requestKey}: found ${places.length} places, not its own`)
        if (pollMatches(outputs[position + 1]!, requestKey, header)) counts.polled++
        else problems.push(`${header.height} #${position} ${requestKey}: /poll's result is not the payload's output`)
      }
      counts.events += entries.events.length
      counts.transfers += entries.transfers.length
      const written = outputs.flatMap((output, at) => coinTransferAmounts(output).map((amount) => ({ position: at - 1, amount })))
      const derived = entries.transfers.filter((transfer) => transfer.token === 'coin')
      counts.coinTransfers += written.length
      if (derived.length !== written.length)
        problems.push(`${header.height}: ${written.length} coin.TRANSFER events, ${derived.length} transfers`)
      for (const [i, { position, amount }] of written.entries()) {
        const transfer = derived[i]
        if (transfer?.position === position && sameValue(transfer.amount, amount) && !/e|E|^-?0[0-9]|\.[0-9]*0$/.test(transfer.amount))
          counts.exactAmounts++
        else problems.push(`${header.height} #${position}: the amount ${amount} became ${transfer?.amount}`)
      }
    }
    const bytes = (kinds: number[]) =>
      operations.filter(({ key }) => kinds.includes(key[1]!)).reduce((sum, { key, value }) => sum + key.length + value.length, 0)
    return {
      blocks: blocks.length,
      ...counts,
      bytes: {
        perTransaction: bytes(Object.values(IndexKind)) / counts.transactions,
        perEvent: bytes([IndexKind.event]) / counts.events,
      },
      problems,
    }
  } finally {
    await db.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Runs the check on `shared` (the shared vectors folder) and prints it; the exit code: 0 passed or skipped, 1 failed. */
export async function runIndexVectors(shared: string): Promise<number> {
  const folder = join(shared, 'real', 'kadena-js')
  const report = await checkIndexVectors(folder)
  if (report === undefined) {
    process.stdout.write(`index vectors and /poll: skipped, no ${join(folder, PAYLOADS)}\n`)
    return 0
  }
  const { blocks, transactions, found, polled, events, transfers, coinTransfers, exactAmounts, bytes, problems } = report
  process.stdout.write(
    `index vectors: ${blocks} blocks, ${found} of ${transactions} request keys found at their block and position, ${polled} /poll results equal to their payload's output with the block's metadata, ${events} events, ${transfers} transfers, ${exactAmounts} of ${coinTransfers} coin.TRANSFER amounts exact; ${bytes.perTransaction.toFixed(1)} index bytes per transaction, ${bytes.perEvent.toFixed(1)} per event\n`,
  )
  for (const problem of problems.slice(0, 20)) process.stdout.write(`index vectors: ${problem}\n`)
  return problems.length === 0 ? 0 : 1
}
