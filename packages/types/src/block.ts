import { type Static, type TSchema, Type } from '@sinclair/typebox'
import { BlockHeader, ChainwebBlockHeader } from './header.js'
import { PayloadWithOutputs } from './payload.js'
import { CursorText } from './primitives.js'

/** A full block in the `spec` profile: header and payload with outputs. */
export const FullBlock = Type.Object({ header: BlockHeader, payloadWithOutputs: PayloadWithOutputs })
/** A full block in the `spec` profile: header and payload with outputs. */
export type FullBlock = Static<typeof FullBlock>

/** A full block in the `chainweb` profile. */
export const ChainwebFullBlock = Type.Object({ header: ChainwebBlockHeader, payloadWithOutputs: PayloadWithOutputs })
/** A full block in the `chainweb` profile. */
export type ChainwebFullBlock = Static<typeof ChainwebFullBlock>

/** Builds the schema of a page of `item`s: `limit` is the number of items returned, `next` the cursor of the following page. */
export function PageOf<T extends TSchema>(item: T) {
  return Type.Object({
    limit: Type.Integer({ minimum: 0 }),
    items: Type.Array(item),
    next: Type.Union([CursorText, Type.Null()]),
  })
}

/** A page of full blocks, `spec` profile. */
export const BlockPage = PageOf(FullBlock)
/** A page of full blocks, `spec` profile. */
export type BlockPage = Static<typeof BlockPage>

/** A page of full blocks, `chainweb` profile. */
export const ChainwebBlockPage = PageOf(ChainwebFullBlock)
/** A page of full blocks, `chainweb` profile. */
export type ChainwebBlockPage = Static<typeof ChainwebBlockPage>
