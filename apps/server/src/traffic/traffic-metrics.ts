import { Gauge, type Registry } from 'prom-client'
import type { NodeContext } from '../node-context.js'

/**
 * Adds the traffic gauges to a node's registry: open connections, client addresses with something
 * running, requests running (the scrape itself included) and chain reads waiting for a slot.
 */
export function registerTrafficMetrics(registry: Registry, node: NodeContext): void {
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
  gauge('weft_http_connections', 'Open HTTP connections (see --max-connections)', () => node.limits.connections)
  gauge('weft_http_clients', 'Client addresses with a request running or an event stream open', () => node.limits.clients)
  gauge('weft_http_requests_running', 'Requests whose handlers are running, this scrape included', () => node.requests.count)
  gauge('weft_read_slots_waiting', 'Chain reads waiting for one of the --concurrent-reads slots', () => node.readSlots.waiting)
}
