export { errorCode, isWeftError, WeftError } from './weft-error.js'
