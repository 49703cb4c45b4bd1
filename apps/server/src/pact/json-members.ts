// Reading members of a JSON text without parsing it into numbers: amounts keep their digits. The
// texts are command results and commands the store confirmed against their payloads, well-formed.

const QUOTE = 0x22
const BACKSLASH = 0x5c

// Where the JSON value that starts at `start` ends (exclusive). The text is a command result the store
// confirmed against its payload, so it is well-formed JSON: the scan only tracks strings and nesting.
export function valueEnd(text: string, start: number): number {
  let depth = 0
  let index = start
  while (index < text.length) {
    const code = text.charCodeAt(index)
    if (code === QUOTE) {
      index += 1
      while (text.charCodeAt(index) !== QUOTE) index += text.charCodeAt(index) === BACKSLASH ? 2 : 1
      index += 1
      if (depth === 0) return index
      continue
    }
    if (code === 0x7b || code === 0x5b) depth += 1
    else if (code === 0x7d || code === 0x5d) {
      if (depth === 0) return index
      depth -= 1
      if (depth === 0) return index + 1
    } else if (depth === 0 && (code === 0x2c || code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09)) return index
    index += 1
  }
  return index
}

export const skipSpace = (text: string, index: number): number => {
  let at = index
  while (/\s/.test(text.charAt(at))) at += 1
  return at
}

/** Each member of the JSON object `text`, as its key and the raw text of its value, in order. */
export function memberTexts(text: string): Array<[string, string]> {
  const members: Array<[string, string]> = []
  let index = skipSpace(text, text.indexOf('{') + 1)
  while (index < text.length && text.charCodeAt(index) === QUOTE) {
    const keyEnd = valueEnd(text, index)
    const valueStart = skipSpace(text, skipSpace(text, keyEnd) + 1)
    const end = valueEnd(text, valueStart)
    members.push([JSON.parse(text.slice(index, keyEnd)) as string, text.slice(valueStart, end)])
    const after = skipSpace(text, end)
    if (text.charCodeAt(after) !== 0x2c) break
    index = skipSpace(text, after + 1)
  }
  return members
}

/** The raw text of member `key` of the JSON object `text`; undefined when absent or `text` is no object. */
export function memberText(text: string | undefined, key: string): string | undefined {
  if (text === undefined || !text.trimStart().startsWith('{')) return undefined
  return memberTexts(text).find(([name]) => name === key)?.[1]
}

/** The raw texts of the elements of the JSON array `text` (none when it is no array). */
export function elementTexts(text: string | undefined): string[] {
  if (text === undefined || !text.trimStart().startsWith('[')) return []
  const elements: string[] = []
  let index = skipSpace(text, text.indexOf('[') + 1)
  while (index < text.length && text.charCodeAt(index) !== 0x5d) {
    const end = valueEnd(text, index)
    elements.push(text.slice(index, end))
    const after = skipSpace(text, end)
    if (text.charCodeAt(after) !== 0x2c) break
    index = skipSpace(text, after + 1)
  }
  return elements
}
