import { type AnyBlockHeader, isTransient } from '@weft/api'
import { InvalidOptionError, ReorgTooDeepError } from './errors.js'
import { compareHeaders } from './header-order.js'
import { sleep } from './sleep.js'
import type { ConfirmedHeadersOptions, EmittedBlock, WeftClient } from './types.js'

/** The queries `confirmedHeaders` is made of: any `WeftClient` has them. */
export type ConfirmedHeadersSource = Pick<WeftClient, 'info' | 'heads' | 'branch' | 'headerEvents'>

interface ChainState {
  head?: AnyBlockHeader
  last?: EmittedBlock
}

/**
 * Emits each header once it is `depth` blocks deep on its chain's winning branch, in height order
 * per chain, each once, without gaps. Header updates only say that a chain moved; what is emitted
 * always comes from a branch query between the best head known and the last header emitted, so
 * missed events (reconnects, restarts) and orphans in the stream cannot leak through. A reconnection
 * that the node resumed (Weft's event ids) needs no new look at the heads; any other does. Without
 * `after`, a chain starts at the header that is `depth` deep when the stream first connects.
 */
export async function* confirmedHeaders(client: ConfirmedHeadersSource, options: ConfirmedHeadersOptions): AsyncGenerator<AnyBlockHeader> {
  const { depth, signal } = options
  if (!Number.isSafeInteger(depth) || depth < 0) throw new InvalidOptionError('depth', 'a non-negative integer', depth)
  const retryDelay = options.retryDelay ?? 500
  const maxGap = options.maxGap ?? 1000
  if (!Number.isSafeInteger(maxGap) || maxGap < 1) throw new InvalidOptionError('maxGap', 'a positive integer', maxGap)
  const wanted = options.chains ? new Set(options.chains) : undefined
  const states = new Map<number, ChainState>()
  for (const [chain, last] of options.after ?? []) states.set(chain, { last })
  const stateOf = (chain: number) => {
    let state = states.get(chain)
    if (!state) {
      state = {}
      states.set(chain, state)
    }
    return state
  }
  const consider = (header: AnyBlockHeader) => {
    const state = stateOf(header.chainId)
    if (!state.head || compareHeaders(header, state.head) > 0) state.head = header
  }

  async function* advance(chain: number): AsyncGenerator<AnyBlockHeader> {
    const state = stateOf(chain)
    const head = state.head
    if (!head) return
    const top = head.height - depth
    const last = state.last
    if (top < 0 || (last && top <= last.height)) return
    if (last && top - last.height > maxGap) {
      // A long gap (a resume far behind): first note one hash every maxGap heights on the way
      // down, then emit window by window upwards, so memory and each walk stay bounded.
      const checkpoints: EmittedBlock[] = []
      for await (const block of client.branch(chain, { upper: [head.hash], lower: [last.hash] }, { maxheight: top })) {
        const { hash, height } = block.header
        if ((height - last.height) % maxGap === 0 && height < top) checkpoints.push({ hash, height })
      }
      for (const checkpoint of checkpoints.reverse()) yield* emitUpTo(chain, state, checkpoint, head)
    }
    yield* emitUpTo(chain, state, { hash: head.hash, height: top }, head)
  }

  // Emits the winning branch from just above the last emitted header up to height `upper.height`
  // below (or at) `upper.hash`, after checking that it continues the emitted sequence.
  async function* emitUpTo(chain: number, state: ChainState, upper: EmittedBlock, head: AnyBlockHeader): AsyncGenerator<AnyBlockHeader> {
    const last = state.last
    // Upper = a block of the best branch, lower = the last emitted header: exactly the gap, whatever was missed.
    const bounds = { upper: [upper.hash], lower: last ? [last.hash] : [] }
    const query = last ? { maxheight: upper.height } : { minheight: upper.height, maxheight: upper.height }
    const gap: AnyBlockHeader[] = []
    for await (const block of client.branch(chain, bounds, query)) gap.push(block.header)
    gap.reverse()
    if (gap.length === 0 && !last) return // the chain is not yet `depth` blocks above its genesis
    let parent = last?.hash
    let height = last ? last.height + 1 : upper.height
    for (const header of gap) {
      if ((parent !== undefined && header.parent !== parent) || header.height !== height) break
      parent = header.hash
      height += 1
    }
    // The branch does not continue the emitted one: the head moved to a fork below what was emitted.
    if (height !== upper.height + 1) throw new ReorgTooDeepError(chain, depth, last?.hash ?? head.hash)
    for (const header of gap) {
      state.last = { hash: header.hash, height: header.height }
      yield header
    }
  }

  while (!signal?.aborted) {
    try {
      const streamOptions = {
        retryDelay,
        ...(signal ? { signal } : {}),
        ...(options.maxRetryDelay !== undefined ? { maxRetryDelay: options.maxRetryDelay } : {}),
        ...(options.idleTimeout !== undefined ? { idleTimeout: options.idleTimeout } : {}),
      }
      for await (const event of client.headerEvents(streamOptions)) {
        if (event.type === 'connected') {
          // Resumed after the last event: nothing was missed.
          if (event.resumed) continue
          // Events may have been missed while disconnected: start again from the node's current heads.
          const chains = options.chains ?? (await client.info()).nodeChains.map(Number)
          for (const head of (await client.heads(chains)).values()) consider(head)
          for (const chain of chains) yield* advance(chain)
        } else {
          const header = event.update.header
          if (wanted && !wanted.has(header.chainId)) continue
          consider(header)
          yield* advance(header.chainId)
        }
      }
    } catch (error) {
      if (signal?.aborted) return
      if (!isTransient(error)) throw error
      await sleep(retryDelay, signal)
    }
  }
}
