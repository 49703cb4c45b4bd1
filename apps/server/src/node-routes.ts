import { createHash } from 'node:crypto'
import type Router from '@koa/router'
import { chainsAt, encodeU256, genesisHeight } from '@weft/block'
import { encodeHash } from '@weft/hash-text'
import { ancestorAt } from '@weft/traversal'
import { negotiate } from './negotiation.js'
import type { NodeContext } from './node-context.js'
import { writeJson } from './paging.js'
import { parseCount } from './query.js'

/** Body of GET /health-check. */
export const HEALTH_TEXT = 'Health check OK.\n'

/** The /info object: the network's facts in the profile's units. */
export function nodeInfo(node: NodeContext): Record<string, unknown> {
  const { network, rules } = node
  const cutHeight = Math.max(0, ...[...node.store.cut().values()].map((head) => head.height))
  const nodeChains = chainsAt(network, cutHeight).map(String)
  const newest = network.graphs[0]
  const newestChains = newest === undefined ? [] : [...newest.graph.keys()].sort((a, b) => a - b)
  const graphHistory = network.graphs.map((entry) => [
    entry.height,
    [...entry.graph.entries()].sort(([a], [b]) => a - b).map(([chain, adjacents]) => [chain, [...adjacents]]),
  ])
  return {
    nodeApiVersion: '0.0',
    nodeBlockDelay: (network.blockDelay * 1_000_000) / rules.blockDelayMicros,
    nodeChains,
    nodeGenesisHeights: newestChains.map((chain) => [String(chain), genesisHeight(network, chain)]),
    nodeGraphHistory: graphHistory,
    nodeHistoricalChains: graphHistory,
    nodeLatestBehaviorHeight: newest?.height ?? 0,
    nodeNumberOfChains: nodeChains.length,
    nodePackageVersion: node.nodeVersion,
    nodeServiceDate: node.serviceDate,
    nodeVersion: network.name,
  }
}

/** The /cut object; with `maxheight`, every head is replaced by its ancestor at maxheight / chains. */
export async function readCut(node: NodeContext, maxheight: number | undefined): Promise<Record<string, unknown>> {
  const heads = [...node.store.cut().entries()].sort(([a], [b]) => a - b)
  let entries: Array<{ chain: number; hash: Buffer; height: number; weight: bigint }> = heads.map(([chain, head]) => ({
    chain,
    hash: head.hash,
    height: head.height,
    weight: head.weight,
  }))
  if (maxheight !== undefined) {
    const chainCount = node.network.graphs[0]?.graph.size ?? 1
    const limit = Math.floor(maxheight / chainCount)
    const limited = await Promise.all(
      entries.map(async (entry) => {
        if (genesisHeight(node.network, entry.chain) > limit) return undefined
        if (entry.height <= limit) return entry
        const ref = await ancestorAt(node.store, entry.hash, limit)
        const header = ref === undefined ? undefined : await node.store.getHeader(ref.hash)
        return header === undefined ? undefined : { chain: entry.chain, hash: header.hash, height: header.height, weight: header.weight }
      }),
    )
    entries = limited.filter((entry) => entry !== undefined)
  }
  const hashes: Record<string, { height: number; hash: string }> = {}
  for (const entry of entries) hashes[String(entry.chain)] = { height: entry.height, hash: encodeHash(entry.hash) }
  const id = createHash('sha512-256')
    .update(Buffer.concat(entries.map((entry) => entry.hash)))
    .digest('base64url')
  return {
    hashes,
    origin: null,
    weight: encodeU256(entries.reduce((sum, entry) => sum + entry.weight, 0n)).toString('base64url'),
    height: entries.reduce((sum, entry) => sum + entry.height, 0),
    instance: node.network.name,
    id,
  }
}

/** /health-check and /info at the host root, /cut under the base. */
export function registerNodeRoutes(router: Router, node: NodeContext, base: string): void {
  router.get('/health-check', (ctx) => {
    ctx.body = HEALTH_TEXT
    ctx.set('content-type', 'text/plain;charset=utf-8')
  })
  router.get('/info', (ctx) => {
    negotiate(ctx.get('accept') || undefined)
    writeJson(ctx, Buffer.from(JSON.stringify(nodeInfo(node))))
  })
  router.get(`${base}/cut`, async (ctx) => {
    negotiate(ctx.get('accept') || undefined)
    const maxheight = parseCount(ctx.query, 'maxheight')
    writeJson(ctx, Buffer.from(JSON.stringify(await readCut(node, maxheight))))
  })
}
