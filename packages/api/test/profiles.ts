import t from 'tap'
import { basePath, nodeVersionOf, profileOfHeaders, wireProfiles } from '../src/index.js'

t.test("the profile table's client-visible rows", async (t) => {
  t.equal(basePath('spec', 'development'), '/chain/0.0/development')
  t.equal(basePath('chainweb', 'mainnet01'), '/chainweb/0.0/mainnet01')
  t.match(wireProfiles.spec, { nodeVersionHeader: 'x-chain-node-version', lastPageNext: 'null', noMatch: 'problem-404' })
  t.match(wireProfiles.chainweb, { nodeVersionHeader: 'x-chainweb-node-version', lastPageNext: 'exclusive-last', noMatch: 'empty-200' })
})

t.test("a response's version header names its profile and carries the node's version", async (t) => {
  const reader = (headers: Record<string, string>) => (name: string) => headers[name]
  t.equal(profileOfHeaders(reader({ 'x-chainweb-node-version': '3.2' })), 'chainweb')
  t.equal(profileOfHeaders(reader({ 'x-chain-node-version': '0.1.0' })), 'spec')
  t.equal(profileOfHeaders(reader({ server: 'proxy' })), undefined)
  t.equal(nodeVersionOf(reader({ 'x-chainweb-node-version': '3.2' })), '3.2')
  t.equal(nodeVersionOf(reader({ 'x-chain-node-version': '0.1.0' })), '0.1.0')
  t.equal(nodeVersionOf(reader({})), undefined)
})
