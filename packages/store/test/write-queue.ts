import t from 'tap'
import { WriteQueue } from '../src/write-queue.js'

t.test('tasks run one at a time in the order they were queued', async (t) => {
  const queue = new WriteQueue()
  const log: string[] = []
  const task = (name: string, ms: number) => async () => {
    log.push(`start ${name}`)
    await new Promise((resolve) => setTimeout(resolve, ms))
    log.push(`end ${name}`)
    return name
  }
  const results = await Promise.all([queue.run(task('a', 20)), queue.run(task('b', 1)), queue.run(task('c', 5))])
  t.same(results, ['a', 'b', 'c'])
  t.same(log, ['start a', 'end a', 'start b', 'end b', 'start c', 'end c'])
})

t.test('a failing task rejects its own caller and does not stop later tasks', async (t) => {
  const queue = new WriteQueue()
  const failed = queue.run(async () => {
    throw new Error('boom')
  })
  const next = queue.run(async () => 42)
  await t.rejects(failed, /boom/)
  t.equal(await next, 42)
})

t.test('drain waits for every task queued before it', async (t) => {
  const queue = new WriteQueue()
  let done = false
  void queue.run(async () => {
    await new Promise((resolve) => setTimeout(resolve, 10))
    done = true
  })
  await queue.drain()
  t.ok(done)
})
