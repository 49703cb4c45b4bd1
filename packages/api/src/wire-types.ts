import type {
  BlockHeader,
  BlockPage,
  ChainwebBlockHeader,
  ChainwebBlockPage,
  ChainwebFullBlock,
  ChainwebHeaderUpdate,
  FullBlock,
  HeaderUpdate,
} from '@weft/types'

/**
 * A header as `parseJsonExact` reads it: the node's header object with `featureFlags` as a decimal
 * string, exact. Since release 3.2 their high 32 bits hold fork votes, so real values exceed 2^53,
 * which a JSON number (a double) cannot hold; `BigInt(header.featureFlags)` reads one.
 */
export type ExactHeader<H extends BlockHeader | ChainwebBlockHeader> = Omit<H, 'featureFlags'> & { featureFlags: string }
/** An object of the node's with its `header` read exactly (`ExactHeader`). */
export type WithExactHeader<T extends { header: BlockHeader | ChainwebBlockHeader }> = Omit<T, 'header'> & {
  header: ExactHeader<T['header']>
}

/** A full block in either profile (the header's version key differs), `featureFlags` exact. */
export type AnyFullBlock = WithExactHeader<FullBlock> | WithExactHeader<ChainwebFullBlock>
/** A block header in either profile, `featureFlags` exact. */
export type AnyBlockHeader = ExactHeader<BlockHeader> | ExactHeader<ChainwebBlockHeader>
/** A page of full blocks in either profile, `featureFlags` exact. */
export type AnyBlockPage =
  | (Omit<BlockPage, 'items'> & { items: Array<WithExactHeader<FullBlock>> })
  | (Omit<ChainwebBlockPage, 'items'> & { items: Array<WithExactHeader<ChainwebFullBlock>> })
/** The data of a header update event in either profile, `featureFlags` exact. */
export type AnyHeaderUpdate = WithExactHeader<HeaderUpdate> | WithExactHeader<ChainwebHeaderUpdate>
