// Event streams at scale: many subscribers of one node's header updates at about 20 blocks a second,
// against the bare node:http fan-out of the same frames (the floor of `pnpm bench`'s figure).
import {
  type HeaderBurstRun,
  type HeaderUpdatesRun,
  headerBurstRun,
  headerUpdatesRun,
  p99,
  rssPerSubscriber,
} from '../figures/header-updates.js'

/** The weft node's and the floor's runs with `subscribers` streams, or undefined when asked for none. */
export interface StreamsAtScale {
  readonly subscribers: number
  readonly weft: HeaderUpdatesRun
  readonly floor: HeaderUpdatesRun
  readonly weftP99: number
  readonly floorP99: number
  readonly weftBytesPerSubscriber: number
  readonly floorBytesPerSubscriber: number
  /** A window of `burstBlocks` blocks inserted at once, on each kind of node. */
  readonly weftBurst: HeaderBurstRun
  readonly floorBurst: HeaderBurstRun
}

/** Blocks of the window inserted at once: one batch of the store's writer, as ingest writes a copied window. */
export const burstBlocks = 256

/** Runs the weft node, then the floor, each with `subscribers` event streams for `seconds`; then a window of blocks inserted at once on each. */
export async function eventStreamsAtScale(subscribers: number, seconds: number): Promise<StreamsAtScale | undefined> {
  if (subscribers <= 0) return undefined
  const options = { subscribers, blockDelay: 1, seconds, warmupSeconds: 2 }
  const weft = await headerUpdatesRun('weft', options)
  const floor = await headerUpdatesRun('floor', options)
  const weftBurst = await headerBurstRun('weft', subscribers, burstBlocks)
  const floorBurst = await headerBurstRun('floor', subscribers, burstBlocks)
  return {
    subscribers,
    weft,
    floor,
    weftP99: p99(weft),
    floorP99: p99(floor),
    weftBytesPerSubscriber: rssPerSubscriber(weft, subscribers),
    floorBytesPerSubscriber: rssPerSubscriber(floor, subscribers),
    weftBurst,
    floorBurst,
  }
}
