import { type AnyHeaderJson, headerFromJson, headerToJson, headerToJsonText, powHashHex, targetHex } from '@weft/block'
import t from 'tap'
import { profiles } from '../../src/profile/profiles.js'
import { type AnnouncedHeader, blockEventData, eventDataParts, headerEventData } from '../../src/streams/event-data.js'
import { cutAndInfo, vector } from '../fixtures/vectors.js'

const updates = vector<Array<{ header: AnyHeaderJson; txCount: number }>>('mainnet-header-updates.json')
const announced: AnnouncedHeader[] = updates.map(({ header, txCount }) => {
  const decoded = headerFromJson(header)
  return { header: decoded, headerJson: Buffer.from(headerToJsonText(decoded, 'spec')), txCount }
})
// The payloads as the store keeps them: canonical key order.
const canonicalKeys = ['transactions', 'minerData', 'transactionsHash', 'outputsHash', 'payloadHash', 'coinbase']
const payloads = cutAndInfo.updateEvents.blockUpdates.map((text) => {
  const payload = (JSON.parse(text) as { payloadWithOutputs: Record<string, unknown> }).payloadWithOutputs
  return Buffer.from(JSON.stringify(payload, canonicalKeys))
})
const text = (pieces: Buffer[]): string => Buffer.concat(pieces).toString('utf8')

t.test("chainweb event data is the real node's text: every object's keys alphabetical, adjacents sorted as text", async (t) => {
  t.equal(cutAndInfo.updateEvents.eventName, 'BlockHeader')
  announced.forEach((header, index) => {
    const parts = eventDataParts(profiles.chainweb, header)
    t.equal(text(headerEventData(parts)), cutAndInfo.updateEvents.headerUpdates[index], `header update ${index}`)
    t.equal(
      text(blockEventData(profiles.chainweb, parts, payloads[index]!)),
      cutAndInfo.updateEvents.blockUpdates[index],
      `block update ${index}`,
    )
  })
})

t.test('spec event data keeps the canonical orders, the payload last', async (t) => {
  const [header] = announced
  const parts = eventDataParts(profiles.spec, header!)
  const expected = {
    header: headerToJson(header!.header, 'spec'),
    powHash: powHashHex(header!.header),
    target: targetHex(header!.header.target),
    txCount: 0,
  }
  t.equal(text(headerEventData(parts)), JSON.stringify(expected))
  t.equal(
    text(blockEventData(profiles.spec, parts, payloads[0]!)),
    `${JSON.stringify(expected).slice(0, -1)},"payloadWithOutputs":${payloads[0]}}`,
  )
})
