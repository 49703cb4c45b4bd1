import type { WeftClient } from '@weft/client'
import type { CliIo, Flags, Values } from '@weft/command-line'
import { UsageError } from '@weft/command-line'
import { clientFrom, connectionFlags, connectionHelp, integer } from '../cli/arguments.js'
import { writeLine } from '../cli/io.js'
import { followUpdates } from './follow-updates.js'

/** One line for the overview. */
export const summary = 'print header updates as they happen, or only confirmed headers with --depth'

/** The flags of `weft follow`. */
export const flags: Flags = {
  ...connectionFlags,
  depth: { type: 'string' },
  chain: { type: 'string', short: 'c', multiple: true },
  count: { type: 'string' },
}

/** The text of `weft follow --help`. */
export const help = `Usage: weft follow [--depth N] [--chain N...] [--count N] [options]

Without --depth: prints the data of every header update event ({header, powHash, target, txCount})
as one JSON line, reconnecting whenever the stream ends. A Weft node resumes the stream after the
last event printed; when it cannot (the gap is longer than its window, or it restarted), the
blocks missed on each chain's winning branch are read with branch queries and printed first.
With --depth N: prints each header object once it is N blocks deep on its chain's winning branch,
per chain in height order, without gaps or orphans, across reorganisations and reconnections.
Runs until interrupted (SIGINT, SIGTERM) or --count lines were printed.

      --depth N        confirmation depth (0 = the head)
  -c, --chain N        follow this chain only (repeatable; default all)
      --count N        exit after N lines

${connectionHelp}`

/** Prints header updates, or confirmed headers with `--depth`, until interrupted or `--count` lines. */
export async function run(values: Values, io: CliIo): Promise<void> {
  const client = clientFrom(values, io)
  const chains = ((values.chain as string[] | undefined) ?? []).map((text) => integer('--chain', text))
  const count = values.count === undefined ? Infinity : integer('--count', values.count as string)
  await checkChains(client, chains)
  const controller = new AbortController()
  const signal = io.signal ? AbortSignal.any([io.signal, controller.signal]) : controller.signal
  const lines =
    values.depth === undefined
      ? followUpdates(client, chains, signal)
      : client.confirmedHeaders({
          depth: integer('--depth', values.depth as string),
          signal,
          ...(chains.length > 0 ? { chains } : {}),
        })
  let printed = 0
  if (count === 0) return
  for await (const line of lines) {
    await writeLine(io.stdout, line)
    if (++printed >= count) break
  }
  controller.abort()
}

// A chain the node does not have would be followed forever without a line: refuse it up front.
async function checkChains(client: WeftClient, chains: readonly number[]): Promise<void> {
  if (chains.length === 0) return
  const info = await client.info()
  const known = new Set(info.nodeChains.map(Number))
  for (const [, graph] of info.nodeGraphHistory) for (const [chain] of graph) known.add(chain)
  const unknown = chains.filter((chain) => !known.has(chain))
  if (unknown.length > 0) {
    const names = [...known].sort((a, b) => a - b).join(', ')
    throw new UsageError(`--chain must be one of the node's chains (${names}), got ${unknown.join(', ')}`)
  }
}
