import { descendingPage, formatCursor, parseCursor } from '@weft/cursor'
import fc from 'fast-check'
import t from 'tap'
import type { BranchOptions, HeaderRef, HeaderSource } from '../src/index.js'
import { branch, MAX_BRANCH_BOUNDS } from '../src/index.js'
import type { BlockTree } from './fixtures/block-tree.js'
import { ancestorsOrSelf, buildTree, CountingSource, hashOf, JumpingSource, key, treeArbitrary } from './fixtures/block-tree.js'

async function collect(source: HeaderSource, options: BranchOptions): Promise<HeaderRef[]> {
  const result: HeaderRef[] = []
  for await (const ref of branch(source, options)) result.push(ref)
  return result
}

const keys = (refs: readonly HeaderRef[]): string[] => refs.map((ref) => key(ref.hash))
const sameKeys = (a: readonly HeaderRef[], b: readonly HeaderRef[]): boolean => keys(a).join() === keys(b).join()

// The contract's definition, computed the slow way over the whole tree.
function expectedBranch(tree: BlockTree, options: BranchOptions): HeaderRef[] {
  const covered = (bounds: readonly Uint8Array[]): Set<string> => new Set(bounds.flatMap((hash) => [...ancestorsOrSelf(tree, hash)]))
  const upper = covered(options.upper)
  const lower = covered(options.lower)
  const minheight = options.minheight ?? 0
  const maxheight = options.maxheight ?? Number.POSITIVE_INFINITY
  return tree.blocks
    .filter((b) => upper.has(key(b.hash)) && !lower.has(key(b.hash)) && b.height >= minheight && b.height <= maxheight)
    .sort((a, b) => b.height - a.height || Buffer.compare(a.hash, b.hash))
}

// Random queries over a tree: up to 32 distinct bounds a side, with duplicates; lower bounds also
// unknown or on the other chain; optional height filters.
function queryArbitrary(tree: BlockTree): fc.Arbitrary<BranchOptions> {
  const { blocks, otherChain } = tree
  const top = blocks.reduce((max, b) => Math.max(max, b.height), 0)
  const block = fc.nat().map((n) => (blocks[n % blocks.length] as HeaderRef).hash)
  const lowerBound = fc.oneof(
    { weight: 6, arbitrary: block },
    { weight: 1, arbitrary: fc.nat().map((n) => (otherChain[n % otherChain.length] as HeaderRef).hash) },
    { weight: 1, arbitrary: fc.nat().map((n) => hashOf(`unknown:${n}`)) },
  )
  const withDuplicates = (bounds: fc.Arbitrary<Buffer>, fewest: number): fc.Arbitrary<Buffer[]> =>
    fc
      .tuple(
        // Few bounds half of the time, so that results are often long; up to 32 otherwise.
        fc.oneof(
          fc.uniqueArray(bounds, { minLength: fewest, maxLength: 3, selector: key }),
          fc.uniqueArray(bounds, { maxLength: MAX_BRANCH_BOUNDS, selector: key, size: 'max' }),
        ),
        fc.array(fc.nat(), { maxLength: 4 }),
      )
      .map(([distinct, again]) =>
        distinct.length === 0 ? distinct : [...distinct, ...again.map((n) => distinct[n % distinct.length] as Buffer)],
      )
  const height = fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.nat({ max: top + 1 }) })
  return fc
    .record({
      upper: withDuplicates(block, 1),
      lower: withDuplicates(lowerBound, 0),
      minheight: height,
      maxheight: height,
    })
    .map(({ upper, lower, minheight, maxheight }) => ({
      chain: 0,
      upper,
      lower,
      ...(minheight === undefined ? {} : { minheight }),
      ...(maxheight === undefined ? {} : { maxheight }),
    }))
}

const treeAndQuery = (maxBlocks: number): fc.Arbitrary<{ tree: BlockTree; query: BranchOptions }> =>
  treeArbitrary(maxBlocks).chain((tree) => queryArbitrary(tree).map((query) => ({ tree, query })))

t.test('branch equals the brute-force set difference, in descending height and ascending hash order', async (t) => {
  await fc.assert(
    fc.asyncProperty(treeAndQuery(150), async ({ tree, query }) => {
      return sameKeys(await collect(tree.source, query), expectedBranch(tree, query))
    }),
    { numRuns: 250 },
  )
  t.pass('every generated query matched the brute force')
})

t.test('lookups stay within the blocks the walk must visit, one batch per height walked', async (t) => {
  await fc.assert(
    fc.asyncProperty(treeAndQuery(150), async ({ tree, query }) => {
      const { source } = tree
      source.reset()
      const answer = await collect(source, query)
      const known = (hash: Uint8Array): HeaderRef | undefined => {
        const ref = source.get(hash)
        return ref?.chainId === 0 ? ref : undefined
      }
      const uppers = [...new Set(query.upper.map(key))].map((k) => source.get(Buffer.from(k, 'hex')) as HeaderRef)
      const lowers = [...new Set(query.lower.map(key))].flatMap((k) => known(Buffer.from(k, 'hex')) ?? [])
      const asked = new Set(query.upper.map(key)).size + new Set(query.lower.map(key)).size
      const lowerCovered = new Set(lowers.flatMap((ref) => [...ancestorsOrSelf(tree, ref.hash)]))
      // Each upper line ends where it meets a lower line (or at the genesis): the walk goes no deeper.
      const lineEnd = (ref: HeaderRef): number => {
        let at: HeaderRef | undefined = ref
        while (at !== undefined && !lowerCovered.has(key(at.hash))) at = source.get(at.parent)
        return at?.height ?? 0
      }
      const top = Math.max(...uppers.map((ref) => ref.height), ...lowers.map((ref) => ref.height))
      const bottom = Math.max(query.minheight ?? 0, Math.min(...uppers.map(lineEnd)))
      const heights = Math.max(0, top - bottom + 1)
      const relevant = new Set([...uppers, ...lowers].flatMap((ref) => [...ancestorsOrSelf(tree, ref.hash)]))
      const mustVisit = tree.blocks.filter((b) => relevant.has(key(b.hash)) && b.height >= bottom && b.height <= top).length
      const lines = uppers.length + lowers.length
      return (
        answer.length <= mustVisit &&
        source.lookups <= asked + mustVisit &&
        source.lookups <= asked + lines * heights &&
        source.calls <= 1 + heights
      )
    }),
    { numRuns: 250 },
  )
  t.pass('every generated query stayed within its bounds')
})

t.test('resuming at any block of the branch gives the rest of the sequence, and paging gives it all', async (t) => {
  await fc.assert(
    fc.asyncProperty(treeAndQuery(60), fc.integer({ min: 1, max: 7 }), async ({ tree, query }, limit) => {
      const full = await collect(tree.source, query)
      for (const [index, ref] of full.entries()) {
        if (!sameKeys(await collect(tree.source, { ...query, start: ref.hash }), full.slice(index))) return false
        // The page a client gets with the cursor `inclusive:<this block>`.
        const page = await descendingPage(branch(tree.source, { ...query, start: ref.hash }), { limit, hashOf: (ref) => ref.hash })
        const following = full[index + limit]
        if (!sameKeys(page.items, full.slice(index, index + limit))) return false
        if (page.next !== (following === undefined ? null : formatCursor({ inclusive: true, hash: following.hash }))) return false
      }
      const onBranch = new Set(keys(full))
      const elsewhere = [
        ...tree.blocks.filter((b) => !onBranch.has(key(b.hash))).slice(0, 5),
        ...tree.otherChain.slice(0, 1),
        { hash: hashOf('nowhere') },
      ]
      for (const ref of elsewhere) {
        if ((await collect(tree.source, { ...query, start: ref.hash })).length !== 0) return false
      }
      const paged: HeaderRef[] = []
      let next: string | null = null
      do {
        const start: Buffer | undefined = next === null ? undefined : parseCursor(next).hash
        const page: { items: HeaderRef[]; next: string | null } = await descendingPage(
          branch(tree.source, start === undefined ? query : { ...query, start }),
          { limit, hashOf: (ref) => ref.hash },
        )
        paged.push(...page.items)
        next = page.next
      } while (next !== null && paged.length <= full.length)
      return sameKeys(paged, full)
    }),
    { numRuns: 120 },
  )
  t.pass('every generated query resumed and paged consistently')
})

// A chain of `length` blocks with a fork of 3 blocks off height length - 5.
function longChainWithFork(length: number): { source: CountingSource; main: HeaderRef[]; fork: HeaderRef[] } {
  const main: HeaderRef[] = []
  let parent = hashOf('long:genesis-parent')
  for (let height = 0; height < length; height++) {
    main.push({ hash: hashOf(`long:${height}`), parent, height, chainId: 0 })
    parent = hashOf(`long:${height}`)
  }
  const fork: HeaderRef[] = []
  parent = (main[length - 5] as HeaderRef).hash
  for (let height = length - 4; height < length - 1; height++) {
    fork.push({ hash: hashOf(`fork:${height}`), parent, height, chainId: 0 })
    parent = hashOf(`fork:${height}`)
  }
  return { source: new CountingSource([...main, ...fork]), main, fork }
}

t.test('the cost of a branch near the head does not grow with the chain length', async (t) => {
  const counts: number[] = []
  for (const length of [200, 20_000]) {
    const { source, main, fork } = longChainWithFork(length)
    const upper = [(fork.at(-1) as HeaderRef).hash]
    const lower = [(main.at(-1) as HeaderRef).hash]
    source.reset()
    const result = await collect(source, { chain: 0, upper, lower })
    t.same(keys(result), keys([...fork].reverse()), `the fork's blocks, highest first (length ${length})`)
    counts.push(source.lookups)
  }
  t.equal(counts[0], counts[1])
  t.ok((counts[0] as number) <= 2 + 3 + 5, `lookups ${counts[0]}: two bounds, three fork blocks, five main blocks`)
})

t.test('with ancestorAt, bounds far above the heights walked cost the same on a 1,000 as a 5,000 block line', async (t) => {
  const costs: number[][] = []
  for (const length of [1000, 5000]) {
    const { main, fork } = longChainWithFork(length)
    const source = new JumpingSource([...main, ...fork])
    const tip = (main.at(-1) as HeaderRef).hash
    const at = (height: number): Buffer => (main[height] as HeaderRef).hash
    const queries: Array<[BranchOptions, number[]]> = [
      [{ chain: 0, upper: [tip], lower: [], maxheight: 10, minheight: 8 }, [10, 9, 8]],
      [{ chain: 0, upper: [tip], lower: [], maxheight: 10, start: at(2) }, [2, 1, 0]],
      [{ chain: 0, upper: [tip, (fork.at(-1) as HeaderRef).hash], lower: [at(5)], maxheight: 7 }, [7, 6]],
      [{ chain: 0, upper: [at(3)], lower: [tip] }, []],
      [{ chain: 0, upper: [at(4)], lower: [at(2), (fork.at(-1) as HeaderRef).hash] }, []],
      // The fork's line ends at the fork point; the lower line then comes down to block 3 at once.
      [{ chain: 0, upper: [(fork.at(-1) as HeaderRef).hash, at(3)], lower: [tip] }, [length - 2, length - 3, length - 4]],
    ]
    const cost: number[] = []
    for (const [query, heights] of queries) {
      source.reset()
      t.same(
        (await collect(source, query)).map((ref) => ref.height),
        heights,
        `${JSON.stringify({ ...query, upper: query.upper.length, lower: query.lower.length })} (length ${length})`,
      )
      cost.push(source.lookups + source.jumps)
    }
    costs.push(cost)
  }
  t.same(costs[0], costs[1], 'the same lookups and ancestorAt calls per query')
  t.equal(costs[0]?.[0], 1 + 1 + 2, 'the bound, one ancestorAt, then the parents of the blocks at 10 and 9')
})

// A source whose ancestorAt knows only some blocks (those whose hash starts with an even byte), so
// that some lines jump and others are walked.
class PartlyJumpingSource extends JumpingSource {
  override async ancestorAt(hash: Uint8Array, height: number): Promise<HeaderRef | undefined> {
    return (hash[0] as number) % 2 === 0 ? super.ancestorAt(hash, height) : undefined
  }
}

t.test('a source with ancestorAt, for all blocks or some, gives the same branch from every start as one without', async (t) => {
  await fc.assert(
    fc.asyncProperty(treeAndQuery(150), fc.boolean(), async ({ tree, query }, partly) => {
      const refs = [...tree.blocks, ...tree.otherChain]
      const source = partly ? new PartlyJumpingSource(refs) : new JumpingSource(refs)
      const full = await collect(source, query)
      if (!sameKeys(full, expectedBranch(tree, query))) return false
      for (const [index, ref] of full.entries()) {
        if (!sameKeys(await collect(source, { ...query, start: ref.hash }), full.slice(index))) return false
      }
      return true
    }),
    { numRuns: 150 },
  )
  t.pass('every generated query matched the brute force, and every resumption its rest')
})

t.test('a line that skips the heights jumped to is walked instead', async (t) => {
  const root: HeaderRef = { hash: hashOf('skip:root'), parent: hashOf('skip:none'), height: 0, chainId: 0 }
  const skipping: HeaderRef = { hash: hashOf('skip:10'), parent: root.hash, height: 10, chainId: 0 }
  const child: HeaderRef = { hash: hashOf('skip:11'), parent: skipping.hash, height: 11, chainId: 0 }
  const source = new JumpingSource([root, skipping, child])
  t.same(await collect(source, { chain: 0, upper: [child.hash], lower: [], maxheight: 5 }), [root])
  t.same(await collect(source, { chain: 0, upper: [root.hash], lower: [child.hash] }), [])
  t.same(await collect(source, { chain: 0, upper: [child.hash], lower: [skipping.hash], maxheight: 10 }), [])
})

t.test('a page stops the walk: nothing is looked up past the item that decides next', async (t) => {
  const { source, main } = longChainWithFork(5000)
  source.reset()
  const page = await descendingPage(branch(source, { chain: 0, upper: [(main.at(-1) as HeaderRef).hash], lower: [] }), {
    limit: 3,
    hashOf: (ref) => ref.hash,
  })
  t.same(keys(page.items), keys(main.slice(-3).reverse()))
  t.equal(page.next, `inclusive:${(main.at(-4) as HeaderRef).hash.toString('base64url')}`)
  t.ok(source.lookups <= 1 + 4, `lookups ${source.lookups}`)
})

t.test('the walk stops at minheight without looking below it', async (t) => {
  const { source, main } = longChainWithFork(5000)
  source.reset()
  const result = await collect(source, { chain: 0, upper: [(main.at(-1) as HeaderRef).hash], lower: [], minheight: 4997 })
  t.same(
    result.map((ref) => ref.height),
    [4999, 4998, 4997],
  )
  t.equal(source.lookups, 1 + 2, 'the bound, then the parents of the blocks at 4999 and 4998')
  source.reset()
  t.same(await collect(source, { chain: 0, upper: [(main[10] as HeaderRef).hash], lower: [], minheight: 11 }), [])
  t.equal(source.lookups, 1, 'a bound below minheight is looked up, not walked')
})

t.test('a lower bound far above the upper bounds is walked down to them and excludes what it covers', async (t) => {
  const { source, main } = longChainWithFork(300)
  const upper = [(main[100] as HeaderRef).hash]
  t.same(await collect(source, { chain: 0, upper, lower: [(main[299] as HeaderRef).hash] }), [])
  const { fork } = longChainWithFork(300)
  const result = await collect(source, { chain: 0, upper: [(main[298] as HeaderRef).hash], lower: [(fork.at(-1) as HeaderRef).hash] })
  t.same(keys(result), keys(main.slice(296, 299).reverse()), 'the main blocks above the fork point')
})

t.test('a bound above maxheight still contributes its ancestors at or below maxheight', async (t) => {
  const tree = buildTree(7, [0, 0, 0, 0, 0, 0, 0, 0, 0])
  const tip = tree.blocks.at(-1) as HeaderRef
  const result = await collect(tree.source, { chain: 0, upper: [tip.hash], lower: [(tree.blocks[2] as HeaderRef).hash], maxheight: 5 })
  t.same(
    result.map((ref) => ref.height),
    [5, 4, 3],
  )
  t.same(await collect(tree.source, { chain: 0, upper: [tip.hash], lower: [], minheight: 8 }), [tip, tree.blocks[8]])
})

t.test('siblings at one height come in ascending raw hash order and shared ancestors once', async (t) => {
  // Blocks 1, 2 and 3 all have the genesis as parent.
  const tree = buildTree(3, [5, 15, 25])
  const [genesis, ...children] = tree.blocks as [HeaderRef, ...HeaderRef[]]
  t.same(
    children.map((ref) => ref.height),
    [1, 1, 1],
  )
  const result = await collect(tree.source, { chain: 0, upper: children.map((ref) => ref.hash), lower: [] })
  t.same(keys(result), keys([...[...children].sort((a, b) => Buffer.compare(a.hash, b.hash)), genesis]))
})

t.test('minheight above maxheight, no bounds, or bounds only on one side, give nothing', async (t) => {
  const tree = buildTree(1, [0, 0, 0])
  const tip = (tree.blocks.at(-1) as HeaderRef).hash
  t.same(await collect(tree.source, { chain: 0, upper: [tip], lower: [], minheight: 2, maxheight: 1 }), [])
  t.same(await collect(tree.source, { chain: 0, upper: [], lower: [tip] }), [])
  t.same(await collect(tree.source, { chain: 0, upper: [tip], lower: [tip] }), [])
  tree.source.reset()
  t.same(await collect(tree.source, { chain: 0, upper: [], lower: [] }), [])
  t.equal(tree.source.calls, 0, 'no bounds, no lookup')
})

t.test('a start block that is unknown, on another chain, outside the heights or off the branch yields nothing', async (t) => {
  // Block 5 is a sibling of block 4 (both children of block 3), block 6 a child of block 4.
  const tree = buildTree(2, [0, 0, 0, 0, 15, 15])
  const tip = tree.blocks[4] as HeaderRef
  t.same([tree.blocks[5]?.parent, tree.blocks[6]?.parent], [tree.blocks[3]?.hash, tip.hash])
  const query = { chain: 0, upper: [tip.hash], lower: [] }
  t.same(await collect(tree.source, { ...query, start: hashOf('unknown') }), [])
  t.same(await collect(tree.source, { ...query, start: (tree.otherChain[0] as HeaderRef).hash }), [])
  t.same(await collect(tree.source, { ...query, start: tip.hash, maxheight: 3 }), [])
  t.same(await collect(tree.source, { ...query, start: (tree.blocks[1] as HeaderRef).hash, minheight: 2 }), [])
  t.same(await collect(tree.source, { ...query, start: (tree.blocks[5] as HeaderRef).hash }), [], 'a sibling off the branch')
  t.same(await collect(tree.source, { ...query, start: (tree.blocks[6] as HeaderRef).hash }), [], 'a descendant of the upper bound')
  t.same(
    await collect(tree.source, { ...query, lower: [(tree.blocks[2] as HeaderRef).hash], start: (tree.blocks[1] as HeaderRef).hash }),
    [],
    'an excluded block',
  )
  t.same(keys(await collect(tree.source, { ...query, start: (tree.blocks[2] as HeaderRef).hash })), keys(tree.blocks.slice(0, 3).reverse()))
})
