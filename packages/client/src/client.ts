import { confirmedHeaders } from './confirmed-headers.js'
import { createConnection } from './connection.js'
import { headerEvents } from './header-stream.js'
import { createHeadFinder } from './heads.js'
import { eventPage, eventUpdates, indexItems, transaction, transferPage } from './index-reads.js'
import { blockPage, branchPage, pageItems, pagesFrom } from './pages.js'
import type { ClientOptions, WeftClient } from './types.js'

/** Creates a client of the node at `options.url`; nothing is sent until a method is called. */
export function createClient(options: ClientOptions): WeftClient {
  const connection = createConnection(options)

  const client: WeftClient = {
    url: connection.root,
    target: connection.target,
    info: connection.info,

    async health() {
      const answer = await connection.transport.send({ url: `${connection.root}/health-check` })
      return Buffer.from(answer.body).toString('utf8')
    },

    blockPage: (chain, query) => blockPage(connection, chain, query),
    blockPages: (chain, query = {}) => pagesFrom((next) => blockPage(connection, chain, { ...query, next }), query),
    blocks: (chain, query) => pageItems(client.blockPages(chain, query)),

    branchPage: (chain, bounds, query) => branchPage(connection, chain, bounds, query),
    branchPages: (chain, bounds, query = {}) => pagesFrom((next) => branchPage(connection, chain, bounds, { ...query, next }), query),
    branch: (chain, bounds, query) => pageItems(client.branchPages(chain, bounds, query)),

    heads: (chains) => heads(chains),

    headerEvents: (streamOptions) => headerEvents(connection, streamOptions),
    async *headerUpdates(streamOptions) {
      for await (const event of client.headerEvents(streamOptions)) {
        if (event.type === 'update') yield event.update
      }
    },

    confirmedHeaders: (confirmedOptions) => confirmedHeaders(client, confirmedOptions),

    transaction: (requestKey, chain) => transaction(connection, requestKey, chain),
    eventPage: (filter, query) => eventPage(connection, filter, query),
    events: (filter, query = {}) => indexItems((next) => eventPage(connection, filter, { ...query, next }), query),
    transferPage: (account, token, query) => transferPage(connection, account, token, query),
    transfers: (account, token, query = {}) => indexItems((next) => transferPage(connection, account, token, { ...query, next }), query),
    eventUpdates: (filter, streamOptions) => eventUpdates(connection, filter, streamOptions),
  }
  const heads = createHeadFinder(connection, client)
  return client
}
