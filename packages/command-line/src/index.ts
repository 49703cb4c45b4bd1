export { UsageError } from './errors.js'
export { type CliIo, writeText } from './io.js'
export { type Command, type Flags, type Program, programHelp, runProgram, type Values } from './program.js'
