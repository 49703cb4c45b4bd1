import { isDeepStrictEqual } from 'node:util'
import type { BlockHeader, ChainwebBlockHeader, Profile } from '@weft/types'
import fc from 'fast-check'
import t from 'tap'
import {
  type AnyHeaderJson,
  headerFromJson,
  headerFromJsonText,
  headerJsonForProfile,
  headerToJson,
  headerToJsonText,
  parseJsonExact,
  stringifyJsonExact,
} from '../src/index.js'
import { headerArb, headerKeyOrder, headerVectors, holds } from './fixtures/helpers.js'

const vector = (): ChainwebBlockHeader => structuredClone((headerVectors[0] as (typeof headerVectors)[number]).object)

t.test('the spec profile names the version chainVersion, the chainweb profile chainwebVersion, in canonical order', async (t) => {
  const h = headerFromJson(vector())
  const spec = headerToJson(h, 'spec')
  const chainweb = headerToJson(h, 'chainweb')
  t.same(Object.keys(spec), headerKeyOrder('chainVersion'))
  t.same(Object.keys(chainweb), headerKeyOrder('chainwebVersion'))
  t.equal(spec.chainVersion, 'mainnet01')
  t.same(headerFromJson(spec), h, 'either version key is read')
  t.same(Object.keys(chainweb.adjacents), ['5', '10', '15'])
})

t.test('random headers round-trip through exact JSON text in both profiles', async (t) => {
  holds(
    t,
    fc.property(headerArb, fc.constantFrom('spec' as const, 'chainweb' as const), (h, profile) => {
      const text = headerToJsonText(h, profile)
      return isDeepStrictEqual(headerFromJsonText(text), h) && isDeepStrictEqual(headerFromJsonText(Buffer.from(text)), h)
    }),
    { numRuns: 200 },
  )
})

t.test('featureFlags above 2^53 are written and read exactly as JSON text', async (t) => {
  const h = { ...headerFromJson(vector()), featureFlags: 18446744073709551615n }
  const text = headerToJsonText(h, 'spec')
  t.match(text, /"featureFlags":18446744073709551615,"hash"/)
  t.equal(headerFromJsonText(text).featureFlags, 18446744073709551615n)
  t.same(parseJsonExact('{"a":{"featureFlags" : 12}}'), { a: { featureFlags: '12' } })
  t.equal(headerFromJson({ ...vector(), featureFlags: 5n } as unknown as AnyHeaderJson).featureFlags, 5n, 'a bigint is accepted too')
})

t.test("header texts read the same from bytes as from the string (@weft/api's parseJsonExact)", async (t) => {
  holds(
    t,
    fc.property(headerArb, fc.constantFrom<Profile>('spec', 'chainweb'), (h, profile) => {
      const text = `{"items":[${headerToJsonText(h, profile)},${headerToJsonText(h, profile)}],"next":null}`
      return isDeepStrictEqual(parseJsonExact(Buffer.from(text)), parseJsonExact(text))
    }),
    { numRuns: 200 },
  )
})

t.test("stringifyJsonExact (@weft/api) writes back a header's text exactly", async (t) => {
  holds(
    t,
    fc.property(headerArb, fc.constantFrom<Profile>('spec', 'chainweb'), (h, profile) => {
      const json = headerToJsonText(h, profile)
      return stringifyJsonExact(parseJsonExact(json)) === json
    }),
    { numRuns: 200 },
  )
})

t.test('spec-profile header bytes become chainweb bytes by swapping one key', async (t) => {
  const h = headerFromJson(vector())
  const spec = Buffer.from(headerToJsonText(h, 'spec'))
  t.equal(headerJsonForProfile(spec, 'spec'), spec)
  t.equal(headerJsonForProfile(spec, 'chainweb').toString(), headerToJsonText(h, 'chainweb'))
  t.throws(() => headerJsonForProfile(Buffer.from('{"chainwebVersion":"x"}'), 'chainweb'), { code: 'INVALID_ENCODING' })
})

t.test('malformed header objects are refused with INVALID_ENCODING naming the field', async (t) => {
  const bad: Array<[string, Record<string, unknown>]> = [
    ['chainwebVersion', { chainwebVersion: 'mainnet02' }],
    ['adjacents', { adjacents: null }],
    ['adjacents', { adjacents: [] }],
    ['adjacent chain ids', { adjacents: { '05': 'Mpic85rur2MYf3zli8s8bHxTFjriFoMPTr6ZPs8sjxM' } }],
    ['adjacent chain ids', { adjacents: { '4294967296': 'Mpic85rur2MYf3zli8s8bHxTFjriFoMPTr6ZPs8sjxM' } }],
    ['adjacents.5', { adjacents: { '5': 'short' } }],
    ['nonce', { nonce: '-1' }],
    ['nonce', { nonce: 1.5 }],
    ['nonce', { nonce: '18446744073709551616' }],
    ['creationTime', { creationTime: '1' }],
    ['chainId', { chainId: -1 }],
    ['height', { height: 2 ** 53 }],
    ['parent', { parent: 7 }],
    ['featureFlags', { featureFlags: -1 }],
    ['featureFlags', { featureFlags: 10n ** 30n }],
  ]
  for (const [name, change] of bad) {
    t.throws(
      () => headerFromJson({ ...vector(), ...change } as unknown as BlockHeader),
      { code: 'INVALID_ENCODING', message: new RegExp(name) },
      name,
    )
  }
  t.throws(() => headerFromJson(null as unknown as BlockHeader), { code: 'INVALID_ENCODING' })
})

// The text headerToJsonText wrote before it built the text directly: JSON.stringify of the
// object, featureFlags made exact. The direct text must stay byte-for-byte the same.
const generalText = (h: Parameters<typeof headerToJson>[0], profile: 'spec' | 'chainweb'): string => {
  const o = headerToJson(h, profile)
  return JSON.stringify(o).replace(`"featureFlags":${o.featureFlags},`, `"featureFlags":${h.featureFlags.toString()},`)
}

t.test('header JSON text is byte-for-byte what JSON.stringify of the header object gives, in both profiles', async (t) => {
  holds(
    t,
    fc.property(
      headerArb,
      fc.constantFrom('spec' as const, 'chainweb' as const),
      (h, profile) => headerToJsonText(h, profile) === generalText(h, profile),
    ),
    { numRuns: 300 },
  )
  for (const { object } of headerVectors) {
    const h = headerFromJson(object)
    t.equal(headerToJsonText(h, 'chainweb'), generalText(h, 'chainweb'))
  }
})

t.test('adjacents out of key order are written in the order JSON.stringify gives their keys', async (t) => {
  const h = headerFromJson(vector())
  const [a, b] = h.adjacents as ReadonlyArray<readonly [number, Buffer]>
  const odd = [[b!, a!], [a!, a!], [[0xffffffff, a![1]] as const, b!], [[1.5, a![1]] as const]]
  for (const adjacents of odd) {
    const text = headerToJsonText({ ...h, adjacents }, 'spec')
    t.equal(text, generalText({ ...h, adjacents }, 'spec'))
  }
  t.match(
    headerToJsonText({ ...h, adjacents: [[0xffffffff, a![1]], b!] }, 'spec'),
    new RegExp(`"adjacents":\\{"${b![0]}":"[^"]+","4294967295":`),
  )
})
