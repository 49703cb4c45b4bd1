import { repairStore, StoreOpenError } from '@weft/store'
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
    // A folder another node holds, or that is no store: the same answers, with their fixes, as when a node starts on it.
    throw error instanceof StoreOpenError ? storeOpenAnswer(data, network, error) : error
  }
  for (const line of report.damagedTables) log.warn({ folder: data, table: line }, 'LevelDB found a table damaged')
  for (const chain of report.chains)
    if (chain.dropped > 0 || chain.lostFrom !== undefined || chain.headBefore !== chain.headAfter)
      log.warn({ ...chain }, `chain ${chain.chain}: heights from ${chain.lostFrom} are incomplete until fetched again`)
  const lost = report.chains.filter((chain) => chain.lostFrom !== undefined)
  log.info(
    {
      folder: data,
      damagedTables: report.damagedTables.length,
      droppedBlocks: report.chains.reduce((sum, chain) => sum + chain.dropped, 0),
      incompleteChains: lost.map((chain) => chain.chain),
      cutKept: report.cutKept ?? null,
      index: report.index,
    },
    lost.length === 0
      ? 'store repaired: nothing of it was lost'
      : 'store repaired: start the node with --upstream and it fetches the lost heights again (the index is rebuilt meanwhile)',
  )
}
