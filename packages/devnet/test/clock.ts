import t from 'tap'
import { simulatedClock, wallClock } from '../src/clock.js'
import { createRandom } from '../src/random.js'

t.test('the simulated clock moves forward by about the mean step, and past the floor', async (t) => {
  const clock = simulatedClock(createRandom('clock'), 1000, 100)
  let last = 1000
  let decreasing = 0
  for (let i = 0; i < 1000; i++) {
    const now = clock.next(0)
    if (now <= last) decreasing++
    last = now
  }
  t.equal(decreasing, 0)
  t.ok(last > 1000 + 1000 * 90 && last < 1000 + 1000 * 110, `mean step near 100: ${(last - 1000) / 1000}`)
  t.equal(clock.next(10_000_000), 10_000_001, 'a floor ahead of the clock moves it')
  t.ok(clock.next(0) > 10_000_001)
})

t.test('the simulated clock depends on the seed only', async (t) => {
  const draw = (seed: string) => {
    const clock = simulatedClock(createRandom(seed), 0, 1e6)
    return [clock.next(0), clock.next(0), clock.next(0)]
  }
  t.same(draw('a'), draw('a'))
  t.notSame(draw('a'), draw('b'))
})

t.test('the wall clock reads the time, but never goes back nor below the floor', async (t) => {
  let now = 500
  const clock = wallClock(() => now)
  t.equal(clock.next(0), 500)
  t.equal(clock.next(0), 501, 'the same instant twice still gives increasing times')
  now = 400
  t.equal(clock.next(0), 502, 'a clock stepped back does not go back')
  t.equal(clock.next(9000), 9001)
  now = 20_000
  t.equal(clock.next(9000), 20_000)
})

t.test('by default the wall clock gives microseconds since the POSIX epoch', async (t) => {
  const before = Date.now() * 1000
  const time = wallClock().next(0)
  const after = Date.now() * 1000
  t.ok(time >= before - 1000 && time <= after + 1000, `${time} within [${before}, ${after}]`)
})
