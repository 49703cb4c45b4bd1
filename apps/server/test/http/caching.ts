import { createHash } from 'node:crypto'
import type { Header } from '@weft/block'
import t from 'tap'
import { cacheControlOf, entityTag, finalHeight, freshnessAt, noneMatchMatches } from '../../src/http/caching.js'

const tag = entityTag(Buffer.from('{"limit":0,"items":[],"next":null}'))

t.test('an entity tag is the quoted unpadded base64url SHA-256 of the bytes, the same for the same bytes', async (t) => {
  const body = Buffer.from('Health check OK.\n')
  t.equal(entityTag(body), `"${createHash('sha256').update(body).digest('base64url')}"`)
  t.equal(entityTag(Buffer.from(body)), entityTag(body))
  t.not(entityTag(Buffer.from('Health check OK.')), entityTag(body))
  t.match(entityTag(body), /^"[A-Za-z0-9_-]{43}"$/)
})

t.test('If-None-Match matches the tag itself, *, a list holding it, and its weak form (weak comparison)', async (t) => {
  t.ok(noneMatchMatches(tag, tag))
  t.ok(noneMatchMatches('*', tag))
  t.ok(noneMatchMatches(' * ', tag))
  t.ok(noneMatchMatches(`"other", ${tag}`, tag))
  t.ok(noneMatchMatches(`"other",${tag} , "third"`, tag))
  t.ok(noneMatchMatches(`W/${tag}`, tag))
  t.ok(noneMatchMatches(`"a,b", W/${tag}`, tag), 'a comma inside a tag does not split it')
  t.ok(noneMatchMatches(tag, `W/${tag}`), 'a weak tag of ours compares by its opaque part')
})

t.test('If-None-Match does not match another tag, an absent header, a bare tag, or what follows a malformed member', async (t) => {
  t.notOk(noneMatchMatches(undefined, tag))
  t.notOk(noneMatchMatches('', tag))
  t.notOk(noneMatchMatches('"other"', tag))
  t.notOk(noneMatchMatches(tag.slice(1, -1), tag), 'an entity tag is quoted')
  t.notOk(noneMatchMatches(`garbage, ${tag}`, tag))
  t.notOk(noneMatchMatches(`"other" ${tag}`, tag), 'members are separated by commas')
  t.notOk(noneMatchMatches('*, "other"', tag), '* stands alone')
})

t.test('the final height is the lowest head of the cut less the final depth; an empty cut has none', async (t) => {
  const heads = (...heights: number[]) => ({ cut: () => new Map(heights.map((height, chain) => [chain, { height } as Header])) })
  t.equal(finalHeight(heads(100, 98, 103), 10), 88)
  t.equal(finalHeight(heads(100), 0), 100)
  t.equal(finalHeight(heads(5, 7), 10), -5)
  t.equal(finalHeight(heads(), 0), -1)
})

t.test('an answer is immutable when its highest height is final, recent when above it or unbounded', async (t) => {
  t.equal(freshnessAt(88, 88), 'immutable')
  t.equal(freshnessAt(0, 88), 'immutable')
  t.equal(freshnessAt(89, 88), 'recent')
  t.equal(freshnessAt(undefined, 88), 'recent')
  t.equal(freshnessAt(0, -1), 'recent')
})

t.test('each freshness has its Cache-Control', async (t) => {
  t.same(cacheControlOf, {
    immutable: 'public, max-age=31536000, immutable',
    recent: 'public, max-age=5',
    live: 'no-cache',
    private: 'no-store',
  })
})
