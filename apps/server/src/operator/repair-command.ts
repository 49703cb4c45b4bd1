import { repairStore } from '@weft/store'
import type { NetworkName } from '@weft/types'
import type { Logger } from 'pino'
import { storeOpenAnswer } from './data-folder.js'

/**
 * `weft-server --repair`: repairs the store in `data` (stopped: a store another process holds is
 * refused) and logs what it did, chain by chain: the height each stood at before and after, the
 * blocks dropped and the height from which they are lost. A node started on the folder with
 * `--upstream` fetches them again from there.
 */
export async function runRepair(data: string, network: NetworkName, log: Logger): Promise<void> {
  let report: Awaited<ReturnType<typeof repairStore>>
  try {
    report = await repairStore({ path: data, network })
  } catch (error) {
    // A folder another node holds, of another network, or that is no store: the same answers, with their fixes, as when a node starts on it.
    throw storeOpenAnswer(data, network, error)
  }
  for (const line of report.damagedTables) log.warn({ folder: data, table: line }, 'LevelDB found a table damaged')
  for (const chain of report.chains)
    if (chain.lostFrom !== undefined)
      log.warn({ ...chain }, `chain ${chain.chain}: heights from ${chain.lostFrom} are incomplete until fetched again`)
  const lost = report.chains.filter((chain) => chain.lostFrom !== undefined)
  log.info(
    {
      folder: data,
      damagedTables: report.damagedTables.length,
      droppedBlocks: report.chains.reduce((sum, chain) => sum + chain.dropped, 0),
      incompleteChains: lost.map((chain) => chain.chain),
      cutKept: report.cutKept,
      index: report.index,
    },
    'store repaired: a node started on it with --upstream fetches the lost heights again (the index is rebuilt meanwhile)',
  )
}
