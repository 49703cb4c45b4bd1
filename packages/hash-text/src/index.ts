export { InvalidHashError, InvalidU256Error } from './errors.js'
export { decodeHash, encodeHash, HASH_BYTES, hashMapKey, isHashText, mapKeyOfHash } from './hash-text.js'
export { decodeU256, encodeU256, MAX_U256 } from './u256.js'
