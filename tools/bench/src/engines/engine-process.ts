// One engine, measured in a process of its own: writes the workload's blocks into a new folder and
// counts the time, the CPU of every thread of the process and what the process wrote to disk; then
// closes, drops the folder's files from the page cache, opens it again and times deep pages, each
// read twice in a row. Argument: a JSON EngineRunSpec. Answers one `measured` message.
import { mkdirSync, readFileSync, statSync } from 'node:fs'
import { deserialize } from 'node:v8'
import { fail, send } from '../child.js'
import { PageMismatchError } from '../errors.js'
import { evictFromPageCache, folderFiles } from '../page-cache.js'
import type { SampledBlock } from '../scale/write-floor.js'
import { type EngineName, openEngine } from './open-engine.js'
import { blockBatches, chains, deepPages, pageRecords, pageStart } from './workload.js'

/** What the bench asks of one engine process. */
export interface EngineRunSpec {
  readonly engine: EngineName
  /** A new folder for the database; the bench removes it afterwards. */
  readonly path: string
  /** The sampled blocks, records and index entries (`v8.serialize`d: Buffers come back as Buffers). */
  readonly samplePath: string
  readonly blocks: number
  readonly pages: number
}

/** What one engine process measured. */
export interface EngineRun {
  readonly engine: EngineName
  readonly blocks: number
  /** Until the last batch was written (resolved). */
  readonly writeSeconds: number
  /** CPU of the process, every thread, until the last batch was written, and until the engine had closed, µs. */
  readonly writeCpuMicros: number
  readonly closeCpuMicros: number
  /** `/proc/self/io` over the writing and the close: bytes the process sent (or queued) to the disk, and those dropped before they reached it. */
  readonly writeBytes: number
  readonly cancelledWriteBytes: number
  /** The engine's own accounts of its tables at the end of the writing, when it keeps any. */
  readonly tableAccounts: { readonly writtenBytes: number; readonly heldBytes: number } | undefined
  /** The folder after close: bytes allocated on disk, and the files' sizes. */
  readonly diskBytes: number
  readonly fileBytes: number
  /** Whether the folder's files were dropped from the page cache before the reads. */
  readonly pageCache: 'evicted' | 'warm'
  readonly reopenMs: number
  /** Each deep page's first read and its read again at once, ms. */
  readonly firstReadMs: readonly number[]
  readonly againReadMs: readonly number[]
  readonly maxRssBytes: number
}

function processIo(): { writeBytes: number; cancelledWriteBytes: number } {
  const fields = new Map(
    readFileSync('/proc/self/io', 'utf8')
      .trim()
      .split('\n')
      .map((line) => line.split(': ') as [string, string]),
  )
  return { writeBytes: Number(fields.get('write_bytes')), cancelledWriteBytes: Number(fields.get('cancelled_write_bytes')) }
}

async function measure(spec: EngineRunSpec): Promise<EngineRun> {
  const sample = deserialize(readFileSync(spec.samplePath)) as SampledBlock[]
  const records = sample.map(({ record }) => record)
  mkdirSync(spec.path, { recursive: true })
  const io = processIo()
  const cpu = process.cpuUsage()
  const started = performance.now()
  const engine = await openEngine(spec.engine, spec.path)
  for (const batch of blockBatches(sample, spec.blocks)) await engine.write(batch)
  const writeSeconds = (performance.now() - started) / 1000
  const writeCpu = process.cpuUsage(cpu)
  const tableAccounts = engine.tableAccounts()
  await engine.close()
  const closeCpu = process.cpuUsage(cpu)
  const ioAfter = processIo()
  const files = folderFiles(spec.path)
  const sizes = files.map((file) => statSync(file))
  const evicted = evictFromPageCache(files)
  const reopened = performance.now()
  const reader = await openEngine(spec.engine, spec.path)
  const reopenMs = performance.now() - reopened
  const firstReadMs: number[] = []
  const againReadMs: number[] = []
  try {
    for (const { chain, height } of deepPages(spec.blocks, spec.pages)) {
      const [gte, lt] = [pageStart(chain, height), pageStart(chain, height + pageRecords)]
      for (const times of [firstReadMs, againReadMs]) {
        const began = performance.now()
        const page = await reader.readPage(gte, lt, pageRecords)
        times.push(performance.now() - began)
        checkPage(page, records, chain, height)
      }
    }
  } finally {
    await reader.close()
  }
  return {
    engine: spec.engine,
    blocks: spec.blocks,
    writeSeconds,
    writeCpuMicros: writeCpu.user + writeCpu.system,
    closeCpuMicros: closeCpu.user + closeCpu.system,
    writeBytes: ioAfter.writeBytes - io.writeBytes,
    cancelledWriteBytes: ioAfter.cancelledWriteBytes - io.cancelledWriteBytes,
    tableAccounts,
    diskBytes: sizes.reduce((sum, stat) => sum + stat.blocks * 512, 0),
    fileBytes: sizes.reduce((sum, stat) => sum + stat.size, 0),
    pageCache: evicted ? 'evicted' : 'warm',
    reopenMs,
    firstReadMs,
    againReadMs,
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
  }
}

// A page holds the records written for its chain's consecutive heights, in order.
function checkPage(page: readonly Buffer[], records: readonly Buffer[], chain: number, height: number): void {
  if (records.length === 0) return
  const wrong = page.findIndex((value, index) => !value.equals(records[((height + index - 1) * chains + chain) % records.length]!))
  if (page.length !== pageRecords || wrong >= 0)
    throw new PageMismatchError(
      `Expected the page of chain ${chain} from height ${height} to hold ${pageRecords} records as written, but it held ${page.length}${wrong >= 0 ? ` and record ${wrong} differed` : ''}`,
    )
}

measure(JSON.parse(process.argv[2] ?? '{}') as EngineRunSpec)
  .then((run) => send({ type: 'measured', run }))
  .catch(fail)
