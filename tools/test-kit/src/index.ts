// The test miners are the conformance suite's own (one definition): valid blocks by the rules, with @weft/block.
export { type ChildOptions, type MinedBraid, makePayload, mineBraid, mineLine, mineValidChild } from '@weft/store/suite'
export { freshFolder, type TestLike } from './folders.js'
export { seededRandom } from './random.js'
export { blocksOf, cutOf, followerStore, storedHashes, testStore } from './stores.js'
export { mountTmpfs, type Tmpfs } from './tmpfs.js'
export { eventually, lowestHead, storeReaches, until, WAIT_BOUND_MS } from './wait.js'
