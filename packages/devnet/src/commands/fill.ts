import type { CliIo, Flags, Values } from '@weft/command-line'
import { UsageError, writeText } from '@weft/command-line'
import cliProgress from 'cli-progress'
import { dataFolder, networkOf, numberOf, storeFlags, storeHelp, withStore } from '../cli/arguments.js'
import { type FillSummary, fill } from '../fill.js'

/** One line for the overview. */
export const summary = 'mine N blocks as fast as possible into a store, deterministically from a seed'

/** The flags of `weft-devnet fill`. */
export const flags: Flags = {
  ...storeFlags,
  blocks: { type: 'string' },
  seed: { type: 'string' },
  'fork-rate': { type: 'string', default: '0' },
}

/** The text of `weft-devnet fill --help`. */
export const help = `Usage: weft-devnet fill --data DIR --blocks N [options]

Mines N blocks, orphans included, into the store in DIR as fast as the CPU allows; the same seed
gives the same blocks. Prints one summary line; draws a progress bar on stderr when it is a terminal.

  --blocks N          how many blocks to add, orphans included              [required]
  --seed S            the seed (same seed, same blocks)                [default: "weft"]
  --fork-rate R       probability from 0 to 1 that a block gets an orphan sibling [default: 0]
${storeHelp}

Example:
  weft-devnet fill --data ./data --network development --blocks 20000 --seed 1 --fork-rate 0.05`

/** Fills the store and prints what it added. */
export async function run(values: Values, io: CliIo): Promise<void> {
  dataFolder(values)
  networkOf(values)
  if (values.blocks === undefined) throw new UsageError('Expected --blocks N, how many blocks to add')
  const blocks = numberOf('--blocks', values.blocks as string)
  const forkRate = numberOf('--fork-rate', values['fork-rate'] as string)
  const seed = values.seed as string | undefined
  await withStore(values, async (store) => {
    const started = performance.now()
    // A bar only on a terminal: in a pipe or a log file it would be noise.
    const bar =
      io.stderr.isTTY === true
        ? new cliProgress.SingleBar(
            {
              stream: io.stderr as NodeJS.WriteStream,
              format: 'filling |{bar}| {percentage}% | {value}/{total} blocks | ETA {eta_formatted}',
              hideCursor: true,
              fps: 10,
            },
            cliProgress.Presets.shades_classic,
          )
        : undefined
    bar?.start(blocks, 0)
    let filled: FillSummary
    try {
      filled = await fill(store, { blocks, forkRate, ...(seed === undefined ? {} : { seed }), onProgress: (done) => bar?.update(done) })
    } finally {
      bar?.stop()
    }
    const seconds = (performance.now() - started) / 1000
    const heights = [...store.heads().values()].map((head) => head.height)
    await writeText(
      io.stdout,
      `filled ${filled.blocks} blocks (${filled.orphans} orphans) on ${heights.length} chain${heights.length === 1 ? '' : 's'} of ${store.network.name} ` +
        `in ${seconds.toFixed(1)} s (${Math.round(filled.blocks / Math.max(seconds, 1e-3))} blocks/s); ` +
        `heights ${Math.min(...heights)}-${Math.max(...heights)}\n`,
    )
  })
}
