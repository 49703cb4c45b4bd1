import type { CliIo, Flags, Values } from '@weft/command-line'
import { UsageError } from '@weft/command-line'
import { clientFrom, connectionFlags, connectionHelp } from '../cli/arguments.js'
import { indexPageArguments, indexPageFlags, indexPageHelp, printItems } from '../cli/index-arguments.js'
import { writeLine } from '../cli/io.js'

/** One line for the overview. */
export const summary = 'print events by qualified name or module, newest first, or as they happen with --follow'

/** The flags of `weft events`. */
export const flags: Flags = {
  ...connectionFlags,
  ...indexPageFlags,
  name: { type: 'string' },
  module: { type: 'string' },
  follow: { type: 'boolean', short: 'f' },
}

/** The text of `weft events --help`. */
export const help = `Usage: weft events (--name MODULE.NAME | --module MODULE) [--follow] [options]

Prints one JSON line per event (a Weft node in the spec profile: GET {base}/event), newest first,
following the cursors: requestKey, chain, height, blockHash, position, index, module, name, params,
moduleHash, canonical, depth. With --follow: prints instead each event as its block joins the
winning branch ({base}/event/updates), resuming after the last one across reconnections, until
interrupted (SIGINT, SIGTERM) or --limit lines.

      --name NAME      a qualified event name, e.g. coin.TRANSFER
      --module MODULE  every event of a module, e.g. coin
  -f, --follow         print events as they happen
${indexPageHelp}

${connectionHelp}`

/** Prints the events, or follows them. */
export async function run(values: Values, io: CliIo): Promise<void> {
  const name = values.name as string | undefined
  const module = values.module as string | undefined
  if ((name === undefined) === (module === undefined)) throw new UsageError('weft events takes one of --name and --module')
  const filter = name === undefined ? { module } : { name }
  const { query, limit } = indexPageArguments(values)
  const client = clientFrom(values, io)
  const print = (item: unknown) => writeLine(io.stdout, item)
  if (values.follow !== true) return printItems(client.events(filter, query), limit, print)
  const controller = new AbortController()
  const signal = io.signal ? AbortSignal.any([io.signal, controller.signal]) : controller.signal
  const missed = (data: string) => io.stderr.write(`weft events: the node could not resume, events were missed: ${data}\n`)
  await printItems(client.eventUpdates(filter, { signal, onResumeFailed: missed }), limit, print)
  controller.abort()
}
