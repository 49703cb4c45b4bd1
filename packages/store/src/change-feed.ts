import type { StoreEvent, StoreListener } from './chain-store.js'
import { ListenerError } from './errors.js'

/** The store's change feed: synchronous listeners, called in subscription order. */
export class ChangeFeed {
  readonly #listeners = new Set<StoreListener>()

  /** Adds `listener`; returns the function that removes it (idempotent). */
  subscribe(listener: StoreListener): () => void {
    // Wrapped so that subscribing the same function twice gives two independent subscriptions.
    const entry: StoreListener = (event) => listener(event)
    this.#listeners.add(entry)
    return () => {
      this.#listeners.delete(entry)
    }
  }

  /** Calls every listener with `event`; one that throws is reported as a warning, never to the caller. */
  emit(event: StoreEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event)
      } catch (error) {
        // Listeners are the server's business: report, and never fail the insert that is already durable.
        process.emitWarning(new ListenerError({ cause: error }))
      }
    }
  }

  /** Drops every listener (on close). */
  clear(): void {
    this.#listeners.clear()
  }
}
