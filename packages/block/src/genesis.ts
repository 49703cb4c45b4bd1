import { readFileSync } from 'node:fs'
import type { ChainwebFullBlock, PayloadWithOutputs } from '@weft/types'
import { blockFromJson } from './block-json.js'
import { UnknownChainError } from './errors.js'
import { computeBlockHash, computePayloadHashes, genesisParentHash } from './hashing.js'
import type { Block, Header } from './header.js'
import { withPayloadHashes } from './mine.js'
import { adjacentChainsAt, genesisHeight, type Network } from './networks.js'

/**
 * Target of the development and test-singleton genesis blocks: 2^254 - 1, so that a uniformly
 * random powHash is <= target with probability exactly 1/4 (difficulty 4). A devnet mining with
 * real proof of work then needs about 4 hash attempts per block.
 */
export const EASY_TARGET = (1n << 254n) - 1n

// The payload of every built genesis block: no transactions, the "no miner" miner data and the
// "no coinbase" output that the real network uses where there is no miner.
const NO_MINER = '{"account":"NoMiner","predicate":"<","public-keys":[]}'
const NO_COINBASE =
  '{"gas":0,"result":{"status":"success","data":"NO_COINBASE"},"reqKey":"DldRwCblQ7Loqy6wYJnaodHl30d3j3eH-qtFzfEv46g","logs":null,"metaData":null,"continuation":null,"txId":null}'

/** The payload of every genesis block Weft builds, and of the blocks of a network's opening: no transactions, no miner, no coinbase. */
export function emptyPayload(): PayloadWithOutputs {
  return withPayloadHashes({
    transactions: [],
    minerData: Buffer.from(NO_MINER).toString('base64url'),
    coinbase: Buffer.from(NO_COINBASE).toString('base64url'),
  })
}

function buildGenesis(network: Network, chain: number): Block {
  const height = genesisHeight(network, chain)
  const payload = emptyPayload()
  const header: Header = {
    nonce: 0n,
    creationTime: network.genesisTime,
    parent: genesisParentHash(network.versionCode, chain),
    adjacents: (adjacentChainsAt(network, chain, height) as number[]).map((c) => [c, genesisParentHash(network.versionCode, c)] as const),
    target: EASY_TARGET,
    payloadHash: computePayloadHashes(payload).payloadHash,
    chainId: chain,
    weight: 0n,
    height,
    version: network.name,
    epochStart: network.genesisTime,
    featureFlags: 0n,
    hash: Buffer.alloc(32),
  }
  header.hash = computeBlockHash(header)
  return { header, payload }
}

// Networks whose genesis blocks are the real network's, kept as data (src/data, copied into
// dist/data by the build, so the tarball holds dist only); the others are built by the rules.
const realGenesisNetworks: ReadonlySet<string> = new Set(['mainnet01', 'testnet06', 'testnet04', 'recap-development'])

const cache = new Map<string, Map<number, Block>>()

function genesisOf(network: Network): Map<number, Block> {
  let blocks = cache.get(network.name)
  if (blocks === undefined) {
    blocks = new Map()
    if (realGenesisNetworks.has(network.name)) {
      const text = readFileSync(new URL(`./data/genesis-${network.name}.json`, import.meta.url), 'utf8')
      for (const json of JSON.parse(text) as ChainwebFullBlock[]) {
        const block = blockFromJson(json)
        blocks.set(block.header.chainId, block)
      }
    } else {
      for (const chain of allChains(network)) blocks.set(chain, buildGenesis(network, chain))
    }
    cache.set(network.name, blocks)
  }
  return blocks
}

/** Every chain the network ever has, ascending. */
export function allChains(network: Network): number[] {
  const chains = new Set<number>()
  for (const g of network.graphs) for (const c of g.graph.keys()) chains.add(c)
  return [...chains].sort((a, b) => a - b)
}

function copyBlock(b: Block): Block {
  const h = b.header
  return {
    header: {
      ...h,
      parent: Buffer.from(h.parent),
      adjacents: h.adjacents.map(([c, hash]) => [c, Buffer.from(hash)] as const),
      payloadHash: Buffer.from(h.payloadHash),
      hash: Buffer.from(h.hash),
    },
    payload: structuredClone(b.payload),
  }
}

/** The shared genesis block of a chain, not to be mutated; undefined for a chain the network never has. */
export function sharedGenesisBlock(network: Network, chain: number): Block | undefined {
  return genesisOf(network).get(chain)
}

/** The genesis block of a chain (a fresh copy): real data for mainnet01, testnet06, testnet04 and recap-development, built by the rules of docs/wire/hashes.md ("Genesis blocks") otherwise. Throws UnknownChainError. */
export function genesisBlock(network: Network, chain: number): Block {
  const block = sharedGenesisBlock(network, chain)
  if (block === undefined) throw new UnknownChainError(network.name, chain)
  return copyBlock(block)
}

/** The genesis blocks of every chain of the network, by ascending chain id (fresh copies). */
export function genesisBlocks(network: Network): Block[] {
  return allChains(network).map((chain) => genesisBlock(network, chain))
}
