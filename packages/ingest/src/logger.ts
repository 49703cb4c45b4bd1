/** Where ingest writes its lines: pino's `Logger` fits, or anything with these three methods. */
export interface IngestLogger {
  info(fields: object, message: string): void
  warn(fields: object, message: string): void
  error(fields: object, message: string): void
}

const ignore = (): void => undefined

/** A logger that writes nothing (the default). */
export const silentLogger: IngestLogger = { info: ignore, warn: ignore, error: ignore }
