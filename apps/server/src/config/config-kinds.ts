/** How one kind of setting is read from text (a flag or an environment variable) and checked (from any source). */
export interface ValueKind<T> {
  /** Stands for the value in --help (`--port <n>`); undefined for a switch, which takes no value on the command line. */
  readonly placeholder: string | undefined
  /** What a value must be, completing "Expected <setting> to be ...". */
  readonly expected: string
  /** The value a flag's or variable's text stands for; undefined when it stands for none (`abc` for a number). */
  fromText(text: string): T | undefined
  /** Whether a value, from text or from a caller of `startServer`, is one the server can use. */
  accepts(value: unknown): value is T
  /** Whether the flag may be given several times (its texts are then read as one, joined by commas). */
  readonly repeatable?: boolean
}

/** Any text. */
export function text(placeholder = '<value>'): ValueKind<string> {
  return {
    placeholder,
    expected: 'a text',
    fromText: (value) => value,
    accepts: (value): value is string => typeof value === 'string',
  }
}

/** One of a list of names. */
export function choice<const T extends string>(names: readonly T[], placeholder = '<name>'): ValueKind<T> {
  return {
    placeholder,
    expected: `one of ${names.join(', ')}`,
    // Any text is read as is: the check names the setting and the names it may take.
    fromText: (value) => value as T,
    accepts: (value): value is T => (names as readonly unknown[]).includes(value),
  }
}

/** A number that passes `test`, written in decimal (fractions allowed unless `test` refuses them). */
export function number(expected: string, test: (value: number) => boolean, placeholder = '<n>'): ValueKind<number> {
  return {
    placeholder,
    expected,
    fromText: (value) => (value.trim() === '' || !Number.isFinite(Number(value)) ? undefined : Number(value)),
    accepts: (value): value is number => typeof value === 'number' && test(value),
  }
}

/** A switch: `--name` / `--no-name` on the command line, `true`/`false`/`1`/`0`/`yes`/`no`/`on`/`off` in a variable. */
export function switchKind(): ValueKind<boolean> {
  return {
    placeholder: undefined,
    expected: 'true or false',
    fromText: (value) => (/^(1|true|yes|on)$/i.test(value) ? true : /^(0|false|no|off)$/i.test(value) ? false : undefined),
    accepts: (value): value is boolean => typeof value === 'boolean',
  }
}

/** An ISO 8601 date-time, kept as text. */
export function dateTime(): ValueKind<string> {
  return {
    placeholder: '<date-time>',
    expected: 'an ISO 8601 date-time',
    fromText: (value) => value,
    accepts: (value): value is string => typeof value === 'string' && !Number.isNaN(Date.parse(value)),
  }
}

/** A list of http(s) URLs: a flag given once per URL, or one text of comma-separated URLs. */
export function urlList(): ValueKind<readonly string[]> {
  const isUrl = (value: unknown): boolean => typeof value === 'string' && URL.canParse(value) && /^https?:$/.test(new URL(value).protocol)
  return {
    placeholder: '<url>',
    expected: 'a list of http or https URLs',
    repeatable: true,
    fromText: (value) =>
      value
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part !== ''),
    accepts: (value): value is readonly string[] => Array.isArray(value) && value.every(isUrl),
  }
}

/** An object of finer settings, given by a `startServer` caller only (no flag, no variable). */
export function settingsObject<T extends object>(expected: string): ValueKind<T> {
  return {
    placeholder: undefined,
    expected,
    fromText: () => undefined,
    accepts: (value): value is T => typeof value === 'object' && value !== null && !Array.isArray(value),
  }
}

/** One http(s) URL. */
export function httpUrl(): ValueKind<string> {
  return {
    placeholder: '<url>',
    expected: 'an http or https URL',
    fromText: (value) => value.trim(),
    accepts: (value): value is string => typeof value === 'string' && URL.canParse(value) && /^https?:$/.test(new URL(value).protocol),
  }
}
