import { type Block, blockFromJson } from '@weft/block'
import { decodeHash, encodeHash } from '@weft/hash-text'
import { type ChainStore, MissingParentError, openStore } from '@weft/store'
import type { NetworkName, Profile } from '@weft/types'
import { type AnyBlockHeader, createClient, type WeftClient } from './client.js'
import { isTransient, sleep } from './retry.js'

/** Options of `mirror`. */
export interface MirrorOptions {
  /** Root URL of the upstream node. */
  from: string
  /** Folder of the local store (created when missing; an existing one is resumed). */
  data: string
  /** The upstream's network and profile (found out from its `/info` when left out). */
  network?: NetworkName
  profile?: Profile
  /** Exit after the copy instead of following the upstream. */
  once?: boolean
  /** Stops following (or copying) when aborted; the store is closed either way. */
  signal?: AbortSignal
  /** Blocks asked per GET block page (default 360). */
  pageSize?: number
  /** Heights re-read below the local head of each chain when resuming, to catch late forks (default 16). */
  resumeMargin?: number
  /** Chains copied at the same time (default 2). */
  concurrency?: number
  /** Check every upstream response against its schema (default false: the store validates every block anyway). */
  validate?: boolean
  /** First wait before reconnecting to the upstream, in milliseconds (default 500). */
  retryDelay?: number
  /** Told what happened: pages copied, the end of a copy, blocks inserted while following. */
  onEvent?: (event: MirrorEvent) => void
  /** Told how far the copy got, in heights: `done` of `total` (only asked of the upstream when given). */
  onProgress?: (done: number, total: number) => void
  fetch?: typeof globalThis.fetch
}

/** What `mirror` reports through `onEvent`. */
export type MirrorEvent =
  | { event: 'page'; chain: number; minheight: number; maxheight: number; blocks: number; inserted: number }
  | { event: 'synced'; inserted: number; chains: number }
  | { event: 'inserted'; chain: number; height: number; hash: string }

/** What a finished mirror did. */
export interface MirrorResult {
  network: NetworkName
  /** Blocks that were new to the local store. */
  inserted: number
}

/**
 * Copies every block of every chain, orphans included, from an upstream node into a local store
 * (each block validated by the store's insert), then follows the upstream unless `once` is set.
 * Resumable: each chain restarts at its local head's height less `resumeMargin`; inserts are idempotent.
 */
export async function mirror(options: MirrorOptions): Promise<MirrorResult> {
  const upstream = createClient({
    url: options.from,
    validate: options.validate ?? false,
    ...(options.network ? { network: options.network } : {}),
    ...(options.profile ? { profile: options.profile } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  })
  const { network, profile } = await upstream.target()
  const store = await openStore({ path: options.data, network })
  const copier = new ChainCopier(upstream, store, profile, options)
  try {
    if (options.once) {
      await copier.copyAll()
    } else {
      await copier.follow()
    }
    return { network, inserted: copier.inserted }
  } finally {
    await store.close()
  }
}

class ChainCopier {
  inserted = 0
  readonly #upstream: WeftClient
  readonly #store: ChainStore
  readonly #profile: Profile
  readonly #options: MirrorOptions
  readonly #pageSize: number
  readonly #margin: number

  constructor(upstream: WeftClient, store: ChainStore, profile: Profile, options: MirrorOptions) {
    this.#upstream = upstream
    this.#store = store
    this.#profile = profile
    this.#options = options
    this.#pageSize = options.pageSize ?? 360
    this.#margin = options.resumeMargin ?? 16
  }

  /** Copies every chain from its local head less the margin up to the upstream's top. */
  async copyAll(): Promise<void> {
    const info = await this.#upstream.info()
    const chains = info.nodeGenesisHeights.map(([chain, height]) => ({ chain: Number(chain), genesis: height }))
    const starts = new Map(
      chains.map(({ chain, genesis }) => [chain, Math.max(genesis, (this.#store.cut().get(chain)?.height ?? genesis) - this.#margin)]),
    )
    const progress = await this.#progressTracker(starts)
    const before = this.inserted
    const queue = [...starts]
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const [chain, start] = next
        await this.#copyChain(chain, start, (height) => progress?.(chain, height))
      }
    }
    await Promise.all(Array.from({ length: Math.max(1, this.#options.concurrency ?? 2) }, worker))
    this.#options.onEvent?.({ event: 'synced', inserted: this.inserted - before, chains: chains.length })
  }

  /** Copies, then applies header updates; recopies from the local heads after every reconnection. */
  async follow(): Promise<void> {
    const { signal } = this.#options
    const retryDelay = this.#options.retryDelay ?? 500
    while (!signal?.aborted) {
      try {
        for await (const event of this.#upstream.headerEvents({ retryDelay, ...(signal ? { signal } : {}) })) {
          if (event.type === 'connected') await this.copyAll()
          else await this.#applyUpdate(event.update.header)
        }
      } catch (error) {
        if (signal?.aborted) return
        if (!isTransient(error)) throw error
        await sleep(retryDelay, signal)
      }
    }
  }

  async #copyChain(chain: number, minheight: number, onHeight?: (height: number) => void): Promise<void> {
    for await (const page of this.#upstream.blockPages(chain, { minheight, limit: this.#pageSize })) {
      if (this.#options.signal?.aborted) return
      const blocks = page.items.map((item) => blockFromJson(item))
      const first = blocks[0]
      const last = blocks.at(-1)
      if (!first || !last) continue
      const inserted = await this.#insertAll(chain, blocks)
      this.#options.onEvent?.({
        event: 'page',
        chain,
        minheight: first.header.height,
        maxheight: last.header.height,
        blocks: blocks.length,
        inserted,
      })
      onHeight?.(last.header.height)
    }
  }

  // GET block pages are ascending by height, so parents come first unless the upstream grew a fork
  // below the resume point; then the missing ancestors are fetched with a branch query.
  async #insertAll(chain: number, blocks: Block[]): Promise<number> {
    try {
      const inserted = await this.#store.insertMany(blocks)
      this.inserted += inserted
      return inserted
    } catch (error) {
      if (!(error instanceof MissingParentError)) throw error
    }
    let inserted = 0
    for (const block of blocks) inserted += await this.#insertWithAncestors(chain, block)
    return inserted
  }

  async #insertWithAncestors(chain: number, block: Block): Promise<number> {
    try {
      const { inserted } = await this.#store.insert(block)
      this.inserted += inserted ? 1 : 0
      return inserted ? 1 : 0
    } catch (error) {
      if (!(error instanceof MissingParentError)) throw error
    }
    const head = this.#store.cut().get(chain)
    const bounds = { upper: [encodeHash(block.header.hash)], lower: head ? [encodeHash(head.hash)] : [] }
    const missing: Block[] = []
    for await (const item of this.#upstream.branch(chain, bounds)) missing.push(blockFromJson(item))
    const inserted = await this.#store.insertMany(missing.reverse())
    this.inserted += inserted
    return inserted
  }

  async #applyUpdate(header: AnyBlockHeader): Promise<void> {
    if (await this.#store.getHeader(decodeHash(header.hash))) return
    const chain = header.chainId
    const blocks: Block[] = []
    if (this.#profile === 'spec') {
      // The spec profile announces every insert, orphans too, parents first: fetch just this block.
      for await (const item of this.#upstream.branch(chain, { upper: [header.hash], lower: [header.parent] }))
        blocks.push(blockFromJson(item))
      blocks.reverse()
    } else {
      // The chainweb profile announces only the winning branch: reread the top heights for new forks.
      for await (const item of this.#upstream.blocks(chain, {
        minheight: Math.max(0, header.height - this.#margin),
        limit: this.#pageSize,
      }))
        blocks.push(blockFromJson(item))
    }
    for (const block of blocks) {
      if (await this.#store.getHeader(block.header.hash)) continue
      if ((await this.#insertWithAncestors(chain, block)) > 0) {
        this.#options.onEvent?.({ event: 'inserted', chain, height: block.header.height, hash: encodeHash(block.header.hash) })
      }
    }
  }

  async #progressTracker(starts: ReadonlyMap<number, number>): Promise<((chain: number, height: number) => void) | undefined> {
    const onProgress = this.#options.onProgress
    if (!onProgress) return undefined
    const heads = await this.#upstream.heads([...starts.keys()])
    const reached = new Map<number, number>()
    let total = 0
    for (const [chain, start] of starts) total += Math.max(0, (heads.get(chain)?.height ?? start) - start + 1)
    let done = 0
    onProgress(0, total)
    return (chain, height) => {
      const start = starts.get(chain) ?? 0
      const previous = reached.get(chain) ?? start - 1
      const top = Math.min(height, heads.get(chain)?.height ?? height)
      if (top <= previous) return
      done += top - previous
      reached.set(chain, top)
      onProgress(done, total)
    }
  }
}
