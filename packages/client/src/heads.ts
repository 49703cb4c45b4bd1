import { type AnyBlockHeader, readCut, WeftHttpError } from '@weft/api'
import type { Cut } from '@weft/types'
import type { Connection } from './connection.js'
import { compareHeaders } from './header-order.js'
import type { WeftClient } from './types.js'

/** The queries the head search is made of. */
export type HeadSource = Pick<WeftClient, 'info' | 'blockPage' | 'branchPage' | 'blocks'>

/** Finds the best head of each of `chains` (default: all of the node's). */
export type HeadFinder = (chains?: readonly number[]) => Promise<Map<number, AnyBlockHeader>>

// How far below the highest height the head search looks for a heavier block: weights grow with height.
const headSearchWindow = 8

/**
 * Reads the heads from GET cut, each completed by a one-block branch query; a node without GET cut
 * (it is optional) is asked once, then searched with GET block from then on.
 */
export function createHeadFinder(connection: Connection, source: HeadSource): HeadFinder {
  let cutSupported = true

  async function nodeCut(): Promise<Cut | undefined> {
    if (!cutSupported) return undefined
    try {
      return await readCut(connection.transport.send, await connection.chain(), undefined, await connection.readOptions())
    } catch (error) {
      if (!(error instanceof WeftHttpError) || ![404, 405, 501].includes(error.status)) throw error
      cutSupported = false
      return undefined
    }
  }

  // Without GET cut: find the highest height by doubling then bisecting, then the heaviest block near it.
  async function searchHead(chain: number, genesisHeight: number): Promise<AnyBlockHeader | undefined> {
    const exists = async (height: number) => (await source.blockPage(chain, { minheight: height, limit: 1 })).items.length > 0
    if (!(await exists(genesisHeight))) return undefined
    let low = genesisHeight
    let step = 1
    while (await exists(low + step)) {
      low += step
      step *= 2
    }
    let high = low + step
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2)
      if (await exists(middle)) low = middle
      else high = middle
    }
    let best: AnyBlockHeader | undefined
    for await (const block of source.blocks(chain, { minheight: Math.max(genesisHeight, low - headSearchWindow) })) {
      if (!best || compareHeaders(block.header, best) > 0) best = block.header
    }
    return best
  }

  return async (chains) => {
    const info = await source.info()
    const wanted = chains ?? info.nodeChains.map(Number)
    const genesisHeights = new Map(info.nodeGenesisHeights.map(([chain, height]) => [Number(chain), height]))
    const heads = new Map<number, AnyBlockHeader>()
    const cut = await nodeCut()
    await Promise.all(
      wanted.map(async (chain) => {
        const entry = cut?.hashes[String(chain)]
        let head: AnyBlockHeader | undefined
        if (entry) {
          const page = await source.branchPage(chain, { upper: [entry.hash] }, { minheight: entry.height, limit: 1 })
          head = page.items[0]?.header
        }
        head ??= await searchHead(chain, genesisHeights.get(chain) ?? 0)
        if (head) heads.set(chain, head)
      }),
    )
    return heads
  }
}
