import { Gauge, type Registry } from 'prom-client'
import type { InFlight } from '../http/in-flight.js'
import type { ClientLimits } from './client-limits.js'
import type { ReadSlots } from './read-slots.js'

/** What the traffic gauges read. */
export interface TrafficParts {
  readonly limits: ClientLimits
  readonly requests: InFlight
  readonly readSlots: ReadSlots
}

/**
 * Adds the traffic gauges to a node's registry: open connections, client addresses with something
 * running, requests running (the scrape itself included) and chain reads waiting for a slot.
 */
export function registerTrafficMetrics(registry: Registry, parts: TrafficParts): void {
  const registers = [registry]
  const gauge = (name: string, help: string, read: () => number): void => {
    new Gauge({
      name,
      help,
      registers,
      collect() {
        this.set(read())
      },
    })
  }
  gauge('weft_http_connections', 'Open HTTP connections (see --max-connections)', () => parts.limits.connections)
  gauge('weft_http_clients', 'Client addresses with a request running or an event stream open', () => parts.limits.clients)
  gauge('weft_http_requests_running', 'Requests whose handlers are running, this scrape included', () => parts.requests.count)
  gauge('weft_read_slots_waiting', 'Chain reads waiting for one of the --concurrent-reads slots', () => parts.readSlots.waiting)
}
