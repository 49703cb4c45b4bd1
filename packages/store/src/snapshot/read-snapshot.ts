import type { Header, Network } from '@weft/block'
import { blockPrefix, type ChainDb, decodeBlockRecord } from '../keys.js'

/** A consistent point-in-time view of a store for a snapshot: its cut then, and every block it held then. */
export interface StoreSnapshot {
  readonly network: Network
  /** The node's cut when the snapshot was taken. */
  readonly cut: ReadonlyMap<number, Header>
  /** Every block's full JSON (spec profile), chain by chain, each chain by height then hash: parents first. */
  blocks(): AsyncIterable<Buffer>
  /** Releases the view; call it when done (also when `blocks` was not read to its end). */
  close(): Promise<void>
}

const blockJsonOpen = Buffer.from('{"header":')
const blockJsonMiddle = Buffer.from(',"payloadWithOutputs":')
const blockJsonClose = Buffer.from('}')
// Records read per native call while streaming a snapshot.
const batch = 1024

/**
 * Takes an explicit classic-level snapshot: writes made afterwards are not seen, so the blocks and
 * the cut are those of one moment, while the store goes on taking blocks. Every block of the cut was
 * written before the cut moved to it, so the view holds the cut's blocks and all their ancestors.
 */
export function takeSnapshot(db: ChainDb, network: Network, cut: ReadonlyMap<number, Header>): StoreSnapshot {
  const view = db.snapshot()
  let closed = false
  return {
    network,
    cut,
    async *blocks() {
      const iterator = db.iterator({ gte: Buffer.of(blockPrefix), lt: Buffer.of(blockPrefix + 1), snapshot: view })
      try {
        for (let entries = await iterator.nextv(batch); entries.length > 0; entries = await iterator.nextv(batch)) {
          for (const [, value] of entries) {
            const record = decodeBlockRecord(value)
            yield Buffer.concat([blockJsonOpen, record.headerJson, blockJsonMiddle, record.payloadJson, blockJsonClose])
          }
        }
      } finally {
        await iterator.close()
      }
    },
    async close() {
      if (closed) return
      closed = true
      await view.close()
    },
  }
}
