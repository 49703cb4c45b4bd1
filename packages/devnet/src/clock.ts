import type { CreationClock } from './braid-miner.js'
import type { Random } from './random.js'

/**
 * Simulated time for fill mode: starts at `start` (µs) and moves forward by a random step around
 * `meanStep` per block, so creation times depend on the seed and the network, never the wall clock.
 */
export function simulatedClock(random: Random, start: number, meanStep: number): CreationClock {
  let now = start
  return {
    next(floor) {
      // Uniform in [meanStep/2, 3*meanStep/2): the mean is meanStep, never 0.
      const step = Math.max(1, Math.floor(meanStep * (0.5 + random.next())))
      now = Math.max(now + step, floor + 1)
      return now
    },
  }
}

/** Wall-clock time for live mode (µs), never earlier than `floor` + 1 nor than the time it last gave + 1. */
export function wallClock(nowMicros: () => number = () => Math.floor((performance.timeOrigin + performance.now()) * 1000)): CreationClock {
  let last = 0
  return {
    next(floor) {
      last = Math.max(nowMicros(), floor + 1, last + 1)
      return last
    },
  }
}
