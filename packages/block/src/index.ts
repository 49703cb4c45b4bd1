export { BlockModelError, InvalidHashError } from './errors.js'
export { decodeHash, encodeHash, isHashText } from './hash-text.js'
