export { startServer, nodeVersion, type RunningServer } from './server.js'
export { runCli, type CliIo } from './run-cli.js'
export { createApp } from './app.js'
export { defaultConfig, helpText, parseCommandLine, resolveConfig, type CommandLine, type NetworkName, type ServerConfig, type ServerOptions } from './config.js'
export { basePath, profiles, type ProfileName, type ProfileRules } from './profiles.js'
export { EventHub, eventFrame, keepAliveFrame, type EventHubOptions } from './event-hub.js'
export { negotiate, contentTypes, type Representation } from './negotiation.js'
export { openApiDocument } from './openapi.js'
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
