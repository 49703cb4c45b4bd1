export { InvalidHashError } from './errors.js'
export { decodeHash, encodeHash, HASH_BYTES, hashMapKey, isHashText } from './hash-text.js'
