/** Settings of a hub. */
export interface EventHubOptions {
  /** Milliseconds of idle before a keep-alive comment; 0 disables. */
  readonly keepAliveMs: number
  /** Bytes a client may have pending (not yet taken by the kernel) before it is cut off. */
  readonly maxBacklogBytes: number
  /** Told what the hub does, for the metrics; absent: nothing is told. */
  readonly observer?: EventHubObserver | undefined
  /** Clients written in one step of a sweep, before the event loop gets a turn; default `SWEEP_STEP`. */
  readonly sweepStep?: number | undefined
}

/** What a hub tells its observer. */
export interface EventHubObserver {
  /** One event was written to `clients` clients. */
  sent(clients: number): void
  /** A client fell more than the backlog bound behind and was cut off. */
  cutOff(): void
  /** The events announced together were written to every client, `seconds` after they were announced. */
  delivered?(seconds: number): void
}
