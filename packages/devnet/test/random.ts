import t from 'tap'
import { createRandom } from '../src/random.js'

t.test('the same seed gives the same sequence and a different seed a different one', async (t) => {
  const draw = (seed: string | number) => {
    const random = createRandom(seed)
    return Array.from({ length: 16 }, () => random.next())
  }
  t.same(draw('alpha'), draw('alpha'))
  t.notSame(draw('alpha'), draw('beta'))
  t.same(draw(42), draw('42'), 'a number seed and its decimal text are the same seed')
})

t.test('draws stay within their ranges', async (t) => {
  const random = createRandom('ranges')
  const outOfRange: unknown[] = []
  for (let i = 0; i < 2000; i++) {
    const x = random.next()
    if (!(x >= 0 && x < 1)) outOfRange.push(x)
    const n = random.int(7)
    if (!(Number.isInteger(n) && n >= 0 && n < 7)) outOfRange.push(n)
    const b = random.between(3, 5)
    if (!(b >= 3 && b <= 5)) outOfRange.push(b)
  }
  t.same(outOfRange, [])
  t.equal(random.bytes(7).length, 7)
  t.match(random.hex(9), /^[0-9a-f]{9}$/)
  t.ok(['a', 'b'].includes(random.pick(['a', 'b'])))
})

t.test('draws are spread over their range', async (t) => {
  const random = createRandom('spread')
  const counts = [0, 0, 0, 0]
  for (let i = 0; i < 4000; i++) counts[random.int(4)]!++
  for (const count of counts) t.ok(count > 850 && count < 1150, `bucket count ${count} near 1000`)
  const bytes = random.bytes(4096)
  const ones = [...bytes].reduce((sum, byte) => sum + byte.toString(2).replaceAll('0', '').length, 0)
  t.ok(Math.abs(ones - 4096 * 4) < 400, 'about half the bits are set')
})

t.test('chance is never true for 0, always for 1, and about p otherwise', async (t) => {
  const random = createRandom('chance')
  let hits = 0
  let wrong = 0
  for (let i = 0; i < 2000; i++) {
    if (random.chance(0) || !random.chance(1)) wrong++
    if (random.chance(0.25)) hits++
  }
  t.equal(wrong, 0)
  t.ok(hits > 400 && hits < 600, `${hits} hits near 500`)
})
