// `pnpm bench:reliability`: the figures of issue 19 (hostile and heavy traffic): the devnet producer's
// and a follower's share of writes under 100 connections of reads; the node's memory over ten rounds
// of load and stalled clients; and the cost of --sync-writes. Options are flags (turbo passes no
// environment): --seconds, --pairs, --rounds, --connections, --prefill, --ingest-blocks (0: no
// ingest figure; its windows are 3 s at most, so that the copy outlasts them), --feed-blocks (blocks
// written three times a memory round), --no-unslotted. Writes bench-reliability-results.json at the repository root.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { describeMachine } from '../machine.js'
import { repoRoot } from '../paths.js'
import { formatTable } from '../report.js'
import { memoryFigures, shareFigures, syncFigure } from './figures.js'
import { ingestShare } from './ingest-share.js'
import type { ReliabilityNodeConfig } from './node-process.js'
import { memoryRounds, producerShare } from './rounds.js'
import { syncWriteRates } from './sync-writes.js'

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    pairs: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '100' },
    prefill: { type: 'string', default: '4000' },
    'ingest-blocks': { type: 'string', default: '60000' },
    'feed-blocks': { type: 'string', default: '300' },
    'no-unslotted': { type: 'boolean', default: false },
  },
})
const seconds = Number(values.seconds)
const pairs = Number(values.pairs)
const connections = Number(values.connections)
const prefill = Number(values.prefill)
const ingestBlocks = Number(values['ingest-blocks'])
const log = (text: string): void => void process.stderr.write(`bench:reliability: ${text}\n`)

async function inFolder<T>(use: (path: string) => Promise<T>): Promise<T> {
  const folder = mkdtempSync(join(tmpdir(), 'weft-bench-reliability-'))
  try {
    return await use(folder)
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
}

async function main(): Promise<void> {
  const started = performance.now()
  const machine = describeMachine()
  log(`${machine.cpu}, ${machine.cores} cores, load average ${machine.loadAverage}`)
  const node = (path: string, concurrentReads: number): ReliabilityNodeConfig => ({ path, prefill, blockDelay: 0.002, concurrentReads })
  const shareOptions = { pairs, seconds, connections }
  log(`the devnet producer idle and under ${connections} connections of reads, with the read slots (4, the default)`)
  const slotted = await inFolder((path) => producerShare(node(path, 4), shareOptions))
  log('the same without them (a slot per request)')
  const unslotted = values['no-unslotted'] ? undefined : await inFolder((path) => producerShare(node(path, 100_000), shareOptions))
  log(`a follower copying ${ingestBlocks} blocks, idle and under ${connections} connections of reads`)
  const ingest =
    ingestBlocks > 0
      ? await inFolder((path) =>
          ingestShare(
            { path, prefill: ingestBlocks, concurrentReads: 4 },
            { pairs: Math.min(pairs, 2), seconds: Math.min(seconds, 3), connections },
          ),
        )
      : undefined
  const rounds = Number(values.rounds)
  const memoryRun = (count: number, feedBlocks: number) =>
    inFolder((path) =>
      memoryRounds({ path, prefill, concurrentReads: 4 }, { rounds: count, seconds, settleSeconds: 3, connections, feedBlocks }),
    )
  log(`memory over ${rounds} rounds of reads and stalled clients`)
  const memory = await memoryRun(rounds, 0)
  // With writes the store's own memory grows too (LevelDB's 32 MiB write buffers, its block cache):
  // measured apart, so that the figure above is the server's.
  log(`memory over ${Math.ceil(rounds / 2)} rounds of the same with ${values['feed-blocks']} blocks written three times a round`)
  const writing = await memoryRun(Math.ceil(rounds / 2), Number(values['feed-blocks']))
  log('inserts with and without --sync-writes')
  const sync = await syncWriteRates({ singleBlocks: 400, bulkBlocks: 4000, rounds: 2 })
  const figures = [...shareFigures(slotted, unslotted, ingest, seconds), ...memoryFigures(memory, writing), syncFigure(sync)]
  const path = join(repoRoot, 'bench-reliability-results.json')
  writeFileSync(path, `${JSON.stringify(figures, null, 2)}\n`)
  process.stdout.write(`${JSON.stringify(figures, null, 2)}\n\n`)
  process.stdout.write(`${formatTable(figures, machine, (performance.now() - started) / 1000)}\n`)
  process.stdout.write(`wrote ${path}\n`)
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:reliability failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
  process.exitCode = 1
})
