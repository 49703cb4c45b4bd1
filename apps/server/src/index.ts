export { createApp } from './app.js'
export {
  type CommandLine,
  defaultConfig,
  helpText,
  type NetworkName,
  parseCommandLine,
  resolveConfig,
  type ServerConfig,
  type ServerOptions,
} from './config.js'
export {
  InvalidBodyError,
  InvalidConfigError,
  InvalidCursorError,
  InvalidHashParameterError,
  InvalidMaxheightError,
  InvalidQueryError,
  KeyNotFoundError,
  MethodNotAllowedError,
  NoMatchingBlocksError,
  NotAcceptableError,
  PayloadTooLargeError,
  RouteNotFoundError,
  ServerError,
  TooManyBoundsError,
  UnsupportedMediaTypeError,
} from './errors.js'
export { EventHub, type EventHubOptions, eventFrame, keepAliveFrame } from './event-hub.js'
export { contentTypes, negotiate, type Representation } from './negotiation.js'
export { openApiDocument } from './openapi.js'
export { basePath, type ProfileName, type ProfileRules, profiles } from './profiles.js'
export { type CliIo, runCli } from './run-cli.js'
export { nodeVersion, type RunningServer, startServer } from './server.js'
