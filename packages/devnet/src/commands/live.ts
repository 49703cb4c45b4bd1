import type { CliIo, Flags, Values } from '@weft/command-line'
import { writeText } from '@weft/command-line'
import { dataFolder, networkOf, numberOf, storeFlags, storeHelp, withStore } from '../cli/arguments.js'
import { createProducer } from '../producer.js'

/** One line for the overview. */
export const summary = 'produce blocks in real time until interrupted (or for --duration seconds)'

/** The flags of `weft-devnet live`. */
export const flags: Flags = {
  ...storeFlags,
  'block-delay': { type: 'string' },
  'fork-rate': { type: 'string', default: '0' },
  seed: { type: 'string' },
  duration: { type: 'string' },
}

/** The text of `weft-devnet live --help`. */
export const help = `Usage: weft-devnet live --data DIR [options]

Produces a block on every chain every --block-delay seconds, braided as the network's graph asks,
until interrupted (SIGINT, SIGTERM) or for --duration seconds; then prints what it produced.

  --block-delay S     seconds between blocks of one chain  [default: the network's]
  --duration S        stop after S seconds
  --fork-rate R       probability from 0 to 1 that a block gets an orphan sibling [default: 0]
  --seed S            the seed                                         [default: "weft"]
${storeHelp}

Example:
  weft-devnet live --data ./data --block-delay 0.5`

/** Produces blocks until stopped; a producer that fails ends it with its failure, after the summary. */
export async function run(values: Values, io: CliIo): Promise<void> {
  dataFolder(values)
  const network = networkOf(values)
  const forkRate = numberOf('--fork-rate', values['fork-rate'] as string)
  const blockDelay = values['block-delay'] === undefined ? network.blockDelay : numberOf('--block-delay', values['block-delay'] as string)
  const duration = values.duration === undefined ? undefined : numberOf('--duration', values.duration as string)
  const seed = values.seed as string | undefined
  const failure = await withStore(values, async (store) => {
    let failed: unknown
    let stopWaiting!: () => void
    const stopped = new Promise<void>((resolve) => {
      stopWaiting = resolve
    })
    const producer = createProducer(store, {
      blockDelay,
      forkRate,
      ...(seed === undefined ? {} : { seed }),
      onError: (error) => {
        failed = error
        stopWaiting()
      },
    })
    // After createProducer, which may refuse the options: nothing to undo then.
    const timer = duration === undefined ? undefined : setTimeout(stopWaiting, duration * 1000)
    io.signal?.addEventListener('abort', stopWaiting, { once: true })
    // Aborted while the store opened (a Ctrl-C at start on a busy machine): the listener never fires.
    if (io.signal?.aborted === true) stopWaiting()
    let produced = 0
    const unsubscribe = store.subscribe((event) => {
      if (event.type === 'inserted') produced++
    })
    await writeText(
      io.stderr,
      `producing on ${store.network.name}, one block per chain every ${blockDelay} s${duration === undefined ? ' (Ctrl-C to stop)' : ''}\n`,
    )
    producer.start()
    await stopped
    clearTimeout(timer)
    io.signal?.removeEventListener('abort', stopWaiting)
    await producer.stop()
    unsubscribe()
    await writeText(io.stdout, `produced ${produced} blocks; heights ${[...store.heads().values()].map((head) => head.height).join(' ')}\n`)
    return failed
  })
  // The producer's own failure, reported once what it produced was: the command's exit 1.
  if (failure !== undefined) throw failure
}
