import type { CliIo, Flags, Values } from '@weft/command-line'
import { UsageError, writeText } from '@weft/command-line'
import { dataFolder, networkOf, numberOf, storeFlags, storeHelp, withStore } from '../cli/arguments.js'
import { reorg } from '../reorg.js'

/** One line for the overview. */
export const summary = 'replace the best branch of chains by heavier ones forking --depth blocks below their heads'

/** The flags of `weft-devnet reorg`. */
export const flags: Flags = {
  ...storeFlags,
  chain: { type: 'string', multiple: true },
  depth: { type: 'string' },
  seed: { type: 'string' },
}

/** The text of `weft-devnet reorg --help`. */
export const help = `Usage: weft-devnet reorg --data DIR --chain C [--chain C...] --depth N [options]

Mines, on each chain named, a branch that forks N blocks below its head and outweighs it, and stores
it: the store's cut moves to the new branches. Prints where each forks and the blocks stored.

  --chain C           a chain to reorganise; repeat it for several at once   [required]
  --depth N           blocks below the head where the new branch forks       [required]
  --seed S            the seed (same seed, same blocks)                [default: "weft"]
${storeHelp}

Example:
  weft-devnet reorg --data ./data --chain 3 --depth 1000`

/** Reorganises the chains and prints where each forks. */
export async function run(values: Values, io: CliIo): Promise<void> {
  dataFolder(values)
  networkOf(values)
  if (values.chain === undefined) throw new UsageError('Expected --chain C, a chain to reorganise')
  if (values.depth === undefined) throw new UsageError('Expected --depth N, how far below the head the new branch forks')
  const chains = (values.chain as string[]).map((text) => numberOf('--chain', text))
  const depth = numberOf('--depth', values.depth as string)
  const seed = values.seed as string | undefined
  await withStore(values, async (store) => {
    const done = await reorg(store, { chains, depth, ...(seed === undefined ? {} : { seed }) })
    for (const { chain, forkPoint, newHead } of done.chains) {
      await writeText(
        io.stdout,
        `chain ${chain}: new branch from height ${forkPoint.height} to ${newHead.height}, head ${newHead.hash.toString('base64url')}\n`,
      )
    }
    await writeText(io.stdout, `stored ${done.blocks} blocks\n`)
  })
}
