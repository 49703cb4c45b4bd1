import { setTimeout as sleep } from 'node:timers/promises'
import { type Block, blockFromJson } from '@weft/block'
import { decodeHash, encodeHash } from '@weft/hash-text'
import { MissingParentError } from '@weft/store'
import type { Profile } from '@weft/types'
import { type AnyBlockHeader, isTransient, type WeftClient } from '../index.js'
import { type ProgressRecorder, progressRecorder } from './progress.js'
import type { MirrorOptions, MirrorStore } from './types.js'

/** Copies an upstream's blocks into a store: whole chains, missing ancestors, and announced blocks. */
export class ChainCopier {
  /** Blocks new to the store so far. */
  inserted = 0
  readonly #upstream: WeftClient
  readonly #store: MirrorStore
  readonly #profile: Profile
  readonly #options: MirrorOptions
  readonly #pageSize: number
  readonly #margin: number

  constructor(upstream: WeftClient, store: MirrorStore, profile: Profile, options: MirrorOptions) {
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
      chains.map(({ chain, genesis }) => [chain, Math.max(genesis, (this.#store.heads().get(chain)?.height ?? genesis) - this.#margin)]),
    )
    const onProgress = this.#options.onProgress
    const progress: ProgressRecorder | undefined = onProgress ? await progressRecorder(this.#upstream, starts, onProgress) : undefined
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

  /** Copies, then applies header updates; copies again from the local heads after every reconnection. */
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
        // An abort ends the pause early; the loop condition then ends the follow.
        await sleep(retryDelay, undefined, signal ? { signal } : {}).catch(() => undefined)
      }
    }
  }

  async #copyChain(chain: number, minheight: number, onHeight: (height: number) => void): Promise<void> {
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
      onHeight(last.header.height)
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
    const head = this.#store.heads().get(chain)
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
}
