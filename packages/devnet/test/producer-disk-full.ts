import { join } from 'node:path'
import { openStore, type StoreFullError } from '@weft/store'
import { lowestHead, mountTmpfs, storeReaches } from '@weft/test-kit'
import t from 'tap'
import { createProducer } from '../src/producer.js'
import { checkBraid } from './fixtures/braid-check.js'

t.test(
  'a producer whose store fills up waits without halting, mines on from the cut once space is freed, and stops while it waits',
  async (t) => {
    const disk = mountTmpfs(t, 4 * 1024 * 1024)
    if (disk === undefined) return
    const path = join(disk.path, 'store')
    const store = await openStore({ path, network: 'development', diskChecks: { firstMs: 20, maxMs: 200, resumeFreeBytes: 256 * 1024 } })
    t.teardown(() => store.close())
    const written: Buffer[] = []
    store.subscribe((event) => {
      if (event.type === 'inserted') written.push(event.header.hash)
    })
    const full: StoreFullError[] = []
    let halted: unknown
    let fullAgain: () => void = () => undefined
    const producer = createProducer(store, {
      blockDelay: 0.05,
      seed: 'disk-full',
      onError: (error) => {
        halted = error
      },
      onStoreFull: (error) => {
        full.push(error)
        fullAgain()
      },
    })
    producer.start()
    await storeReaches(store, () => lowestHead(store) >= 2, 'height 2 on every chain')
    const filled = new Promise<void>((resolve) => {
      fullAgain = resolve
    })
    await disk.fill()
    await filled
    t.match(full[0], { code: 'STORE_FULL', path })
    const before = written.length
    await disk.free()
    await store.whenWritable()
    await storeReaches(store, () => written.length > before + 40, '40 more blocks')
    t.equal(halted, undefined, 'the producer did not halt')

    // Full again, and stopped while it waits: the stop ends the wait.
    const filledAgain = new Promise<void>((resolve) => {
      fullAgain = resolve
    })
    await disk.fill()
    await filledAgain
    await producer.stop()
    t.equal(halted, undefined)
    await disk.free()
    await store.close()
    const reopened = await openStore({ path, network: 'development' })
    t.teardown(() => reopened.close())
    t.equal(
      (await reopened.getRefs(written)).filter((ref) => ref === undefined).length,
      0,
      `all ${written.length} blocks written are stored`,
    )
    t.same((await checkBraid(reopened)).problems, [], 'the braid is consistent')
  },
)
