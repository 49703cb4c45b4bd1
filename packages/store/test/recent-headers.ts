import { genesisBlocks, getNetwork } from '@weft/block'
import { mapKeyOfHash } from '@weft/hash-text'
import t from 'tap'
import { RecentHeaders } from '../src/recent-headers.js'

const headers = genesisBlocks(getNetwork('development')).map((block) => ({
  header: block.header,
  headerJson: Buffer.from('{}'),
  txCount: 0,
}))

t.test('holds at most its capacity, evicting the oldest header first', async (t) => {
  const recent = new RecentHeaders(3)
  for (const entry of headers.slice(0, 5)) recent.add(entry)
  t.same(
    headers.slice(0, 5).map((entry) => recent.has(mapKeyOfHash(entry.header.hash))),
    [false, false, true, true, true],
  )
  t.equal(recent.get(mapKeyOfHash(headers[4]!.header.hash)), headers[4])
  t.equal(recent.get(mapKeyOfHash(headers[0]!.header.hash)), undefined)
})

t.test('adding a held header again keeps its place and evicts nothing', async (t) => {
  const recent = new RecentHeaders(2)
  recent.add(headers[0]!)
  recent.add(headers[1]!)
  recent.add(headers[0]!)
  t.ok(recent.has(mapKeyOfHash(headers[0]!.header.hash)))
  t.ok(recent.has(mapKeyOfHash(headers[1]!.header.hash)))
  recent.add(headers[2]!)
  t.notOk(recent.has(mapKeyOfHash(headers[0]!.header.hash)), 'the first added is still the oldest')
})

t.test('a capacity below one still holds the latest header', async (t) => {
  const recent = new RecentHeaders(0)
  recent.add(headers[0]!)
  recent.add(headers[1]!)
  t.notOk(recent.has(mapKeyOfHash(headers[0]!.header.hash)))
  t.ok(recent.has(mapKeyOfHash(headers[1]!.header.hash)))
})
