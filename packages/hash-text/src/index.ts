export { InvalidHashError } from './errors.js'
export { decodeHash, encodeHash, HASH_BYTES, hashMapKey, isHashText, mapKeyOfHash } from './hash-text.js'
