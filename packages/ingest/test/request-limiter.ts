import t from 'tap'
import { RequestLimiter } from '../src/request-limiter.js'

t.test('at most the given number of tasks run at once, in the order they came, failures included', async (t) => {
  const limiter = new RequestLimiter(2)
  let running = 0
  let most = 0
  const order: number[] = []
  const task = (n: number) => async () => {
    running += 1
    most = Math.max(most, running)
    order.push(n)
    await new Promise((resolve) => setTimeout(resolve, 5))
    running -= 1
    if (n === 2) throw new Error('two')
    return n
  }
  const results = await Promise.allSettled([1, 2, 3, 4, 5].map((n) => limiter.run(task(n))))
  t.equal(most, 2)
  t.same(order, [1, 2, 3, 4, 5])
  t.same(
    results.map((result) => (result.status === 'fulfilled' ? result.value : 'failed')),
    [1, 'failed', 3, 4, 5],
  )
  t.equal(await limiter.run(async () => 'free'), 'free', 'every slot was given back')
})
