import t from 'tap'
import { indexPaths } from '../src/index.js'

t.test('the index resources of a base path', async (t) => {
  const base = 'http://h/chain/0.0/development'
  const key = 'a'.repeat(43)
  t.equal(indexPaths.transaction(base, key), `${base}/transaction/${key}`)
  t.equal(indexPaths.transaction(base, key, 3), `${base}/transaction/${key}?chain=3`)
  t.equal(indexPaths.eventPage(base, { name: 'coin.TRANSFER' }), `${base}/event?name=coin.TRANSFER`)
  t.equal(
    indexPaths.eventPage(
      base,
      { module: 'free.m' },
      { limit: 5, next: 'inclusive:x', minheight: 1, maxheight: 9, chain: 2, canonical: true },
    ),
    `${base}/event?module=free.m&limit=5&next=inclusive%3Ax&minheight=1&maxheight=9&chain=2&canonical=true`,
  )
  t.equal(indexPaths.eventPage(base, {}, { next: null }), `${base}/event`, 'a null next is left out')
  t.equal(indexPaths.transferPage(base, 'k:ab cd'), `${base}/transfer?account=k%3Aab+cd`)
  t.equal(indexPaths.transferPage(base, 'alice', 'coin', { limit: 2 }), `${base}/transfer?account=alice&token=coin&limit=2`)
  t.equal(indexPaths.eventUpdates(base, { name: 'coin.TRANSFER' }), `${base}/event/updates?name=coin.TRANSFER`)
  t.equal(indexPaths.eventUpdates(base, { module: 'coin' }, 'ab.1.0'), `${base}/event/updates?module=coin&since=ab.1.0`)
})
