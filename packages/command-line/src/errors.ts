import { WeftError } from '@weft/errors'

/** Bad command-line arguments (an unknown flag, a missing or malformed value): the program prints the reason and the command's usage, and exits 2. */
export class UsageError extends WeftError {
  static override readonly codes = ['USAGE'] as const

  constructor(message: string, options?: ErrorOptions) {
    super('USAGE', message, options)
  }
}
