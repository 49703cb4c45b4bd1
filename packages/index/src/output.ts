import { canonicalDecimal, canonicalInteger } from './decimal.js'
import { CLOSE_ARRAY, CLOSE_OBJECT, JsonScanner, OPEN_ARRAY, OPEN_OBJECT } from './json-scan.js'

/** What the index takes from one event of an output. */
export interface OutputEvent {
  /** Where it stands in the output's `events` (odd events that are skipped still count). */
  readonly index: number
  /** The module's qualified name: `namespace.name`, or `name` outside a namespace. */
  readonly module: string
  readonly name: string
  /** The exact JSON text of the parameters array. */
  readonly params: string
  /** Sender, receiver and canonical amount, when the parameters have a transfer's shape. */
  readonly transfer: { readonly sender: string; readonly receiver: string; readonly amount: string } | undefined
}

/** What the index takes from one output (a command result). */
export interface OutputFacts {
  readonly requestKey: string | undefined
  /** `continuation.pactId`, when the output continues a pact. */
  readonly pactId: string | undefined
  readonly events: OutputEvent[]
}

// The keys read, as bytes: compared without making strings.
const names = (...keys: string[]): Buffer[] => keys.map((key) => Buffer.from(key))
const OUTPUT_KEYS = names('reqKey', 'events', 'continuation')
const CONTINUATION_KEYS = names('pactId')
const EVENT_KEYS = names('name', 'module', 'params')
const MODULE_KEYS = names('name', 'namespace')
const AMOUNT_KEYS = names('decimal', 'int')

// A parameter's place and kind, kept while scanning: the event's name may come after its params.
const NUMBER = 1
const OBJECT = 2

/** Reads an output's JSON bytes; throws MALFORMED (json-scan) unless they are one JSON object. */
export function readOutput(bytes: Buffer): OutputFacts {
  const s = new JsonScanner(bytes)
  let requestKey: string | undefined
  let pactId: string | undefined
  let events: OutputEvent[] = []
  s.expect(OPEN_OBJECT)
  if (!s.closes(CLOSE_OBJECT)) {
    do {
      const key = s.keyOf(OUTPUT_KEYS)
      const next = s.peek()
      if (key === 0 && next === 0x22) requestKey = s.string()
      else if (key === 1 && next === OPEN_ARRAY) events = readEvents(s)
      else if (key === 2 && next === OPEN_OBJECT) pactId = readPactId(s)
      else {
        // Another type than expected: the member counts as absent (the last of repeated members counts, as in JSON.parse).
        if (key === 0) requestKey = undefined
        else if (key === 1) events = []
        else if (key === 2) pactId = undefined
        s.skip(1)
      }
    } while (s.more(CLOSE_OBJECT))
  }
  s.end()
  return { requestKey, pactId, events }
}

function readPactId(s: JsonScanner): string | undefined {
  let pactId: string | undefined
  s.expect(OPEN_OBJECT)
  if (s.closes(CLOSE_OBJECT)) return undefined
  do {
    if (s.keyOf(CONTINUATION_KEYS) !== 0) s.skip(2)
    else if (s.peek() === 0x22) pactId = s.string()
    else {
      pactId = undefined
      s.skip(2)
    }
  } while (s.more(CLOSE_OBJECT))
  return pactId
}

function readEvents(s: JsonScanner): OutputEvent[] {
  const events: OutputEvent[] = []
  s.expect(OPEN_ARRAY)
  if (s.closes(CLOSE_ARRAY)) return events
  let index = 0
  do {
    if (s.peek() === OPEN_OBJECT) {
      const event = readEvent(s, index)
      if (event !== undefined) events.push(event)
    } else s.skip(2)
    index++
  } while (s.more(CLOSE_ARRAY))
  return events
}

function readEvent(s: JsonScanner, index: number): OutputEvent | undefined {
  let name: string | undefined
  let module: string | undefined
  let params: string | undefined
  // Where the first three parameters start, and whether the first two are strings and the third a number or object.
  let first = 0
  let second = 0
  let third = 0
  let strings = 0
  let amountKind = 0
  let count = 0
  s.expect(OPEN_OBJECT)
  if (!s.closes(CLOSE_OBJECT)) {
    do {
      const key = s.keyOf(EVENT_KEYS)
      const next = s.peek()
      if (key === 0 && next === 0x22) name = s.string()
      else if (key === 1 && next === OPEN_OBJECT) module = readModule(s)
      else if (key === 2 && next === OPEN_ARRAY) {
        const start = s.at
        s.at++
        count = 0
        strings = 0
        if (!s.closes(CLOSE_ARRAY)) {
          do {
            const c = s.peek()
            if (count < 2) {
              if (c === 0x22) strings++
              if (count === 0) first = s.at
              else second = s.at
            } else if (count === 2) {
              third = s.at
              amountKind = c === OPEN_OBJECT ? OBJECT : c === 0x2d || (c! >= 0x30 && c! <= 0x39) ? NUMBER : 0
            }
            s.skip(3)
            count++
          } while (s.more(CLOSE_ARRAY))
        }
        params = s.textFrom(start)
      } else {
        // Another type than expected: the member counts as absent.
        if (key === 0) name = undefined
        else if (key === 1) module = undefined
        else if (key === 2) params = undefined
        s.skip(2)
      }
    } while (s.more(CLOSE_OBJECT))
  }
  if (name === undefined || name === '' || module === undefined || params === undefined) return undefined
  let transfer: OutputEvent['transfer']
  if (name === 'TRANSFER' && count === 3 && strings === 2 && amountKind !== 0) {
    const end = s.at
    transfer = readTransfer(s, first, second, third, amountKind)
    s.at = end
  }
  return { index, module, name, params, transfer }
}

// `{namespace: string | null, name: string}` as `namespace.name`; undefined for another shape.
function readModule(s: JsonScanner): string | undefined {
  let namespace: string | null | undefined = null
  let name: string | undefined
  s.expect(OPEN_OBJECT)
  if (!s.closes(CLOSE_OBJECT)) {
    do {
      const key = s.keyOf(MODULE_KEYS)
      const next = s.peek()
      if (key >= 0 && next === 0x22) {
        if (key === 0) name = s.string()
        else namespace = s.string()
        continue
      }
      // Anything else than a string: a null namespace is none, every other value spoils the module.
      if (key === 0) name = undefined
      else if (key === 1) namespace = next === 0x6e ? null : undefined
      s.skip(3)
    } while (s.more(CLOSE_OBJECT))
  }
  if (name === undefined || name === '' || namespace === undefined || namespace === '') return undefined
  return namespace === null ? name : `${namespace}.${name}`
}

// Sender, receiver and amount from where the parameters start; undefined when the amount is not a decimal.
function readTransfer(s: JsonScanner, first: number, second: number, third: number, amountKind: number): OutputEvent['transfer'] {
  s.at = third
  const amount = amountKind === NUMBER ? canonicalDecimal(s.number()) : wrappedAmount(s)
  if (amount === undefined) return undefined
  s.at = first
  const sender = s.string()
  s.at = second
  return { sender, receiver: s.string(), amount }
}

// Pact's `{"decimal": text | number}` or `{"int": text | number}`, one member; undefined otherwise.
function wrappedAmount(s: JsonScanner): string | undefined {
  s.expect(OPEN_OBJECT)
  if (s.closes(CLOSE_OBJECT)) return undefined
  const key = s.keyOf(AMOUNT_KEYS)
  const next = s.peek()
  const text = next === 0x22 ? s.string() : next === 0x2d || (next! >= 0x30 && next! <= 0x39) ? s.number() : undefined
  if (text === undefined || s.more(CLOSE_OBJECT)) return undefined
  if (key === 0) return canonicalDecimal(text)
  return key === 1 ? canonicalInteger(text) : undefined
}
