import { readFileSync } from 'node:fs'
import t from 'tap'
import {
  realCut,
  realHeader,
  realHeaderBinary,
  realHeaderUpdate,
  realInfo,
  realParentHash,
  realPayloadWithOutputs,
} from '../../src/openapi/openapi-real-answers.js'

const vector = (name: string): unknown => JSON.parse(readFileSync(new URL(`../../../../fixtures/vectors/${name}`, import.meta.url), 'utf8'))

t.test("the document's examples are the real node's answers kept in the vectors", async (t) => {
  const [parent, block] = vector('mainnet-blocks.json') as Array<{ header: Record<string, unknown>; payloadWithOutputs: unknown }>
  t.same(realHeader, block!.header, 'block 1,000,001 of chain 0')
  t.same(
    Object.keys(realHeader),
    [
      'nonce',
      'creationTime',
      'parent',
      'adjacents',
      'target',
      'payloadHash',
      'chainId',
      'weight',
      'height',
      'chainwebVersion',
      'epochStart',
      'featureFlags',
      'hash',
    ],
    "in the contract's key order",
  )
  t.same(realPayloadWithOutputs, block!.payloadWithOutputs)
  t.equal(realParentHash, parent!.header.hash)
  const headers = vector('mainnet-headers.json') as Array<{ object: { hash: string }; binary: string }>
  t.equal(realHeaderBinary, headers.find((header) => header.object.hash === realHeader.hash)?.binary)
  const cuts = vector('cut-and-info.json') as { mainnet01: { genesisCut: string; info: { genesisCut: string } } }
  t.same(realCut, JSON.parse(cuts.mainnet01.genesisCut))
  t.same(realInfo, JSON.parse(cuts.mainnet01.info.genesisCut))
  const [update] = vector('mainnet-header-updates.json') as Array<Record<string, unknown>>
  t.same(realHeaderUpdate, update)
})
