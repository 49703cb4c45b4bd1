import { existsSync, readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { emptyPayload } from './genesis.js'
import type { Block } from './header.js'
import { decodeHeader, headerByteLength } from './header-binary.js'
import type { Network } from './networks.js'

const cache = new Map<string, readonly Block[]>()

/**
 * The first blocks after genesis of a network whose genesis targets are beyond a CPU, mined once
 * by Weft (`pnpm opening:mine`) under the network's real rules: recap-development's first eleven
 * blocks of chains 0-9 need about 100,000 hashes each, and of chains 10-19 (from the transition at
 * 60) about 2 million; past the adjustment at 72 the targets take a few hashes. By height, then
 * chain; every block carries `emptyPayload()`. Empty for every other network.
 */
export function networkOpening(network: Network): readonly Block[] {
  let blocks = cache.get(network.name)
  if (blocks === undefined) {
    const file = new URL(`./data/opening-${network.name}.bin.gz`, import.meta.url)
    blocks = existsSync(file) ? decodeOpening(gunzipSync(readFileSync(file))) : []
    cache.set(network.name, blocks)
  }
  return blocks
}

// Binary headers one after another, each three adjacents long.
function decodeOpening(bytes: Buffer): Block[] {
  const size = headerByteLength(3)
  const blocks: Block[] = []
  for (let at = 0; at < bytes.length; at += size)
    blocks.push({ header: decodeHeader(bytes.subarray(at, at + size)), payload: emptyPayload() })
  return blocks
}
