import t from 'tap'
import { DEFAULT_LIMIT, InvalidLimitError, resolveLimit } from '../src/index.js'

t.test('the limit defaults to the cap and is capped without error', async (t) => {
  t.equal(DEFAULT_LIMIT, 360)
  t.equal(resolveLimit(undefined), 360)
  t.equal(resolveLimit(1000), 360)
  t.equal(resolveLimit(360), 360)
  t.equal(resolveLimit(7), 7)
  t.equal(resolveLimit(0), 0)
  t.equal(resolveLimit(undefined, 4096), 4096, 'the cap is configurable, the default follows it')
  t.equal(resolveLimit(5000, 4096), 4096)
  t.equal(resolveLimit(400, 4096), 400)
})

t.test('a limit or cap that is not a non-negative integer is refused with a typed error', async (t) => {
  for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
    t.throws(() => resolveLimit(bad), InvalidLimitError, `limit ${bad}`)
    t.throws(() => resolveLimit(5, bad), { code: 'INVALID_LIMIT', message: /limit cap/ }, `cap ${bad}`)
  }
})
