import t from 'tap'
import { MAX_BODY_DEPTH, nestsDeeperThan } from '../../src/http/json-depth.js'

const deeper = (text: string, max: number): boolean => nestsDeeperThan(Buffer.from(text), max)

t.test('nesting is counted over arrays and objects alike, up to the limit and past it', async (t) => {
  t.equal(deeper('[]', 1), false)
  t.equal(deeper('[[]]', 1), true)
  t.equal(deeper('{"a":[{"b":[]}]}', 4), false)
  t.equal(deeper('{"a":[{"b":[]}]}', 3), true)
  t.equal(deeper('[[],[],[]]', 1), true, 'siblings do not add up, but each is one deeper')
  t.equal(deeper('[[],[],[]]', 2), false)
  t.equal(deeper('1', 0), false, 'a scalar nests nothing')
  t.equal(deeper(`${'['.repeat(MAX_BODY_DEPTH)}${']'.repeat(MAX_BODY_DEPTH)}`, MAX_BODY_DEPTH), false)
  t.equal(deeper(`${'['.repeat(MAX_BODY_DEPTH + 1)}${']'.repeat(MAX_BODY_DEPTH + 1)}`, MAX_BODY_DEPTH), true)
})

t.test('brackets inside strings, escaped quotes included, do not count', async (t) => {
  t.equal(deeper('["[[[[{{{{"]', 1), false)
  t.equal(deeper('["\\"[[[["]', 1), false, 'an escaped quote does not end the string')
  t.equal(deeper('["\\\\",[[]]]', 2), true, 'an escaped backslash does end it before the quote')
  t.equal(deeper('{"ключ[[":"значение{{"}', 1), false, 'multi-byte UTF-8 is never taken for a bracket')
})

t.test('malformed text is scanned all the same, and left to the parser', async (t) => {
  t.equal(deeper(']]]][', 1), false)
  t.equal(deeper('"unterminated [[[[', 1), false)
  t.equal(deeper(Buffer.from([0xff, 0x5b, 0x5b, 0xfe]).toString('latin1'), 1), true)
  t.equal(nestsDeeperThan(Buffer.from([0xff, 0xfe, 0x5b, 0x5b, 0x5b]), 2), true, 'invalid UTF-8 bytes are skipped')
})
