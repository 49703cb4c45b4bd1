// A strict JSON scanner over bytes. It validates everything it passes over, skips what the index does
// not need without building it, and hands out exact number texts, which JSON.parse cannot (it
// rounds every number to a double). Any error throws MALFORMED: the caller drops the text.

/** Thrown (one shared instance, no stack to capture) when a text is not JSON. */
export const MALFORMED = new Error('malformed JSON')

// Nesting deeper than this is refused rather than risking the stack: real outputs nest a few levels.
const MAX_DEPTH = 128

const QUOTE = 0x22
const BACKSLASH = 0x5c
const COMMA = 0x2c
const COLON = 0x3a
/** `[` */
export const OPEN_ARRAY = 0x5b
/** `]` */
export const CLOSE_ARRAY = 0x5d
/** `{` */
export const OPEN_OBJECT = 0x7b
/** `}` */
export const CLOSE_OBJECT = 0x7d
const MINUS = 0x2d

const isDigit = (c: number | undefined): boolean => c !== undefined && c >= 0x30 && c <= 0x39
const isHex = (c: number | undefined): boolean =>
  c !== undefined && ((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66))
const escapes = new Set([QUOTE, BACKSLASH, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]) // " \ / b f n r t

// Bytes a string scan passes at once (printable ASCII but quote and backslash); any other byte, or
// the end of the text (undefined, which no entry matches), stops it.
const PLAIN = 1
const BYTE_CLASS = new Uint8Array(256)
for (let c = 0x20; c < 0x80; c++) if (c !== QUOTE && c !== BACKSLASH) BYTE_CLASS[c] = PLAIN

// Buffer's own decoders, without toString's argument checks: the bounds here are always in range.
interface SliceableBuffer extends Buffer {
  latin1Slice(start: number, end: number): string
  utf8Slice(start: number, end: number): string
}

/** A cursor over one JSON text's bytes. */
export class JsonScanner {
  /** The next byte to read. */
  at = 0
  // What the last string scan found, for decoding it without a second pass.
  #escaped = false
  #wide = false

  constructor(readonly bytes: Buffer) {}

  /** Skips whitespace and returns the next byte (undefined at the end). */
  peek(): number | undefined {
    const { bytes } = this
    let at = this.at
    for (let c = bytes[at]; c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09; c = bytes[++at]);
    this.at = at
    return bytes[at]
  }

  /** Consumes `byte` after whitespace, or throws. */
  expect(byte: number): void {
    if (this.peek() !== byte) throw MALFORMED
    this.at++
  }

  /** Consumes `close` if it comes next (after whitespace): an empty container. */
  closes(close: number): boolean {
    if (this.peek() !== close) return false
    this.at++
    return true
  }

  /** After a member or element: true on a comma, false on `close`, throws otherwise. */
  more(close: number): boolean {
    const c = this.peek()
    this.at++
    if (c === COMMA) return true
    if (c === close) return false
    throw MALFORMED
  }

  /** Ends the text: only whitespace may follow. */
  end(): void {
    if (this.peek() !== undefined) throw MALFORMED
  }

  /** Reads a string at the cursor and returns its value. */
  string(): string {
    if (this.peek() !== QUOTE) throw MALFORMED
    const start = this.at + 1
    const end = this.#stringEnd(start)
    this.at = end + 1
    return this.#decode(start, end)
  }

  /** Reads an object key and the colon after it. */
  key(): string {
    const key = this.string()
    this.expect(COLON)
    return key
  }

  /**
   * Reads an object key and the colon after it, and returns the index in `names` of the one it
   * equals (-1 for none): compared as bytes, so that no string is made for keys nobody reads.
   */
  keyOf(names: readonly Buffer[]): number {
    if (this.peek() !== QUOTE) throw MALFORMED
    const start = this.at + 1
    const end = this.#stringEnd(start)
    this.at = end + 1
    this.expect(COLON)
    if (this.#escaped) return names.findIndex((name) => name.toString('utf8') === this.#decode(start, end))
    const { bytes } = this
    const length = end - start
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!
      if (name.length !== length) continue
      let k = 0
      while (k < length && name[k] === bytes[start + k]) k++
      if (k === length) return i
    }
    return -1
  }

  /** Reads a number at the cursor and returns its exact text (JSON grammar). */
  number(): string {
    this.peek()
    const start = this.at
    this.#numberEnd()
    return (this.bytes as SliceableBuffer).latin1Slice(start, this.at)
  }

  /** Skips one value of any kind, checking it. */
  skip(depth = 0): void {
    const c = this.peek()
    if (c === QUOTE) {
      this.at = this.#stringEnd(this.at + 1) + 1
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (depth >= MAX_DEPTH) throw MALFORMED
      this.at++
      const close = c === OPEN_OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY
      if (this.closes(close)) return
      do {
        if (close === CLOSE_OBJECT) {
          if (this.peek() !== QUOTE) throw MALFORMED
          this.at = this.#stringEnd(this.at + 1) + 1
          this.expect(COLON)
        }
        this.skip(depth + 1)
      } while (this.more(close))
    } else if (c === MINUS || isDigit(c)) {
      this.#numberEnd()
    } else {
      this.#literal()
    }
  }

  /** The bytes from `start` to the cursor as text: a value's exact JSON text. */
  textFrom(start: number): string {
    return (this.bytes as SliceableBuffer).utf8Slice(start, this.at)
  }

  // The index of the closing quote of a string whose first byte is at `start`; validates escapes
  // and control characters and notes whether decoding needs JSON.parse or UTF-8. The loop looks
  // each byte up once: most bytes of a string are plain ASCII.
  #stringEnd(start: number): number {
    const { bytes } = this
    let escaped = false
    let wide = false
    let at = start
    for (;;) {
      while (BYTE_CLASS[bytes[at]!] === PLAIN) at++
      const c = bytes[at]
      if (c === QUOTE) break
      if (c === BACKSLASH) {
        escaped = true
        const e = bytes[++at]
        if (e === 0x75) {
          if (!(isHex(bytes[at + 1]) && isHex(bytes[at + 2]) && isHex(bytes[at + 3]) && isHex(bytes[at + 4]))) throw MALFORMED
          at += 4
        } else if (e === undefined || !escapes.has(e)) throw MALFORMED
      } else if (c !== undefined && c >= 0x80) wide = true
      else throw MALFORMED // a control character, or the end of the text
      at++
    }
    this.#escaped = escaped
    this.#wide = wide
    return at
  }

  #decode(start: number, end: number): string {
    const bytes = this.bytes as SliceableBuffer
    if (this.#escaped) return JSON.parse(bytes.utf8Slice(start - 1, end + 1)) as string
    return this.#wide ? bytes.utf8Slice(start, end) : bytes.latin1Slice(start, end)
  }

  // -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
  #numberEnd(): void {
    const { bytes } = this
    let at = this.at
    if (bytes[at] === MINUS) at++
    if (bytes[at] === 0x30) at++
    else if (isDigit(bytes[at])) while (isDigit(bytes[at])) at++
    else throw MALFORMED
    if (bytes[at] === 0x2e) {
      if (!isDigit(bytes[++at])) throw MALFORMED
      while (isDigit(bytes[at])) at++
    }
    if (bytes[at] === 0x65 || bytes[at] === 0x45) {
      at++
      if (bytes[at] === 0x2b || bytes[at] === MINUS) at++
      if (!isDigit(bytes[at])) throw MALFORMED
      while (isDigit(bytes[at])) at++
    }
    this.at = at
  }

  #literal(): void {
    const { bytes, at } = this
    const word = bytes[at] === 0x74 ? TRUE : bytes[at] === 0x66 ? FALSE : NULL
    for (let k = 0; k < word.length; k++) if (bytes[at + k] !== word[k]) throw MALFORMED
    this.at = at + word.length
  }
}

const TRUE = Buffer.from('true')
const FALSE = Buffer.from('false')
const NULL = Buffer.from('null')
