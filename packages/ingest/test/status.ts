import { genesisBlocks, getNetwork, type Header } from '@weft/block'
import t from 'tap'
import { readiness } from '../src/status.js'
import type { UpstreamStatus } from '../src/upstream-entry.js'

const network = getNetwork('mainnet01')
const genesis = new Map(genesisBlocks(network).map((block) => [block.header.chainId, block.header]))
const at = (header: Header, height: number): Header => ({ ...header, height })
const upstream = (
  cut: Record<number, number> | undefined,
  lastContact: number | undefined,
  state: UpstreamStatus['state'] = 'active',
): UpstreamStatus => ({
  url: 'http://u',
  state,
  network: 'mainnet01',
  profile: 'chainweb',
  lastContact,
  lastError: undefined,
  retries: 0,
  cut: cut === undefined ? undefined : new Map(Object.entries(cut).map(([chain, height]) => [Number(chain), height])),
  cutAt: lastContact,
})

t.test('ready within the lag of the best fresh upstream cut on every chain, with an upstream heard from recently', async (t) => {
  const cut = new Map([
    [0, at(genesis.get(0)!, 10)],
    [1, at(genesis.get(1)!, 12)],
  ])
  const base = { cut, heads: new Map(genesis), maxLag: 3, staleAfter: 1000, now: 10_000 }
  t.same(readiness({ ...base, upstreams: [upstream({ 0: 12, 1: 12 }, 9_500)] }), {
    ready: true,
    lag: new Map([
      [0, 2],
      [1, 0],
    ]),
  })
  t.same(
    readiness({ ...base, upstreams: [upstream({ 0: 14, 1: 11 }, 9_500)] }),
    {
      ready: false,
      lag: new Map([
        [0, 4],
        [1, 0],
      ]),
    },
    'too far behind on one chain; ahead counts as level',
  )
  t.same(readiness({ ...base, upstreams: [upstream({ 0: 10, 1: 12 }, 8_000)] }).ready, false, 'no upstream heard from within staleAfter')
  t.same(readiness({ ...base, upstreams: [upstream(undefined, 9_900)] }), { ready: false, lag: new Map() }, 'no cut read yet')
  t.same(readiness({ ...base, upstreams: [] }), { ready: false, lag: new Map() })
  t.same(
    readiness({
      ...base,
      upstreams: [upstream({ 0: 30, 1: 30 }, 1_000), upstream({ 0: 11, 1: 12 }, 9_900), upstream({ 0: 10, 1: 10 }, 9_900)],
    }),
    {
      ready: true,
      lag: new Map([
        [0, 1],
        [1, 0],
      ]),
    },
    'the best of the fresh upstreams; a stale one does not count',
  )
  t.same(
    readiness({ ...base, upstreams: [upstream({ 0: 20, 1: 20, 12: 852054 }, 1)] }).lag,
    new Map([
      [0, 10],
      [1, 8],
      [12, 0],
    ]),
    'with no fresh upstream the lag is still told; a chain outside the cut counts from its best block',
  )
})

t.test('a demoted or refused upstream is left out of the best cut, unless every upstream left is demoted', async (t) => {
  const cut = new Map([
    [0, at(genesis.get(0)!, 10)],
    [1, at(genesis.get(1)!, 12)],
  ])
  const base = { cut, heads: new Map(genesis), maxLag: 3, staleAfter: 1000, now: 10_000 }
  const followed = upstream({ 0: 10, 1: 12 }, 9_900)
  // A liar: heights far ahead, heard from just now.
  for (const state of ['demoted', 'refused'] as const) {
    t.same(
      readiness({ ...base, upstreams: [followed, upstream({ 0: 60, 1: 60 }, 9_950, state)] }),
      {
        ready: true,
        lag: new Map([
          [0, 0],
          [1, 0],
        ]),
      },
      `a ${state} upstream's cut does not count`,
    )
  }
  t.same(
    readiness({ ...base, upstreams: [upstream({ 0: 11, 1: 12 }, 9_900, 'demoted')] }),
    {
      ready: true,
      lag: new Map([
        [0, 1],
        [1, 0],
      ]),
    },
    'a demoted upstream followed for want of another counts',
  )
  t.same(
    readiness({ ...base, upstreams: [upstream({ 0: 10, 1: 12 }, 9_900, 'refused')] }),
    { ready: false, lag: new Map() },
    'a refused one never',
  )
})
