// `pnpm bench:engines`: the store's writing alone (its records, keys and batches, nothing
// validated) on classic-level and on the maintained engines of the same shape, RocksDB and LMDB,
// each in a process of its own, the engines interleaved round by round (A B C A B C) so that a busy
// machine weighs on each alike. Reports every run and each engine's CPU per block against
// classic-level's: issue 37 switches engines only at 1.5 times cheaper.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { serialize } from 'node:v8'
import { startChild } from '../child.js'
import { UnknownEngineError } from '../errors.js'
import { round } from '../figure.js'
import { describeMachine } from '../machine.js'
import { benchDataDir } from '../paths.js'
import { ensureScaleStore, scaleSpec } from '../scale/dataset.js'
import { sampleBlocks } from '../scale/write-floor.js'
import type { EngineRun, EngineRunSpec } from './engine-process.js'
import { type EngineName, engineNames, engineSettings } from './open-engine.js'
import { type EngineFigures, engineFigures, engineVerdicts, formatEngineRuns, formatVerdicts } from './report.js'
import { entriesPerBlock } from './workload.js'

const { values } = parseArgs({
  options: {
    blocks: { type: 'string', default: '1000000' },
    rounds: { type: 'string', default: '3' },
    engines: { type: 'string', default: 'classic-level,rocksdb,lmdb' },
    pages: { type: 'string', default: '200' },
    records: { type: 'string', default: '20000' },
    small: { type: 'string', default: '100000' },
    'fork-rate': { type: 'string', default: '0.02' },
  },
})
const log = (line: string): void => void process.stderr.write(`bench:engines: ${line}\n`)

function engineList(text: string): EngineName[] {
  return text.split(',').map((name) => {
    if (!(engineNames as readonly string[]).includes(name)) throw new UnknownEngineError(name, engineNames)
    return name as EngineName
  })
}

async function runEngine(spec: EngineRunSpec): Promise<EngineRun> {
  const child = startChild('engines/engine-process.js', [JSON.stringify(spec)])
  try {
    const { run } = await child.next<{ type: string; run: EngineRun }>('measured')
    await child.exited
    return run
  } finally {
    child.kill()
    rmSync(spec.path, { recursive: true, force: true })
  }
}

async function main(): Promise<void> {
  const engines = engineList(values.engines)
  const blocks = Number(values.blocks)
  const machine = describeMachine()
  log(`${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, node ${machine.node}, load average ${machine.loadAverage}`)
  // The blocks of the small scale store with their index entries, as `pnpm bench:scale`'s writing floor samples them.
  const small = await ensureScaleStore(scaleSpec(Number(values.small), Number(values['fork-rate'])), log)
  const sample = await sampleBlocks(small.path, Number(values.records))
  const entries = round(entriesPerBlock(sample), 1)
  const work = mkdtempSync(join(tmpdir(), 'weft-bench-engines-'))
  try {
    const samplePath = join(work, 'sample.bin')
    writeFileSync(samplePath, serialize(sample))
    const spec = (engine: EngineName, pages: number): EngineRunSpec => ({ engine, path: join(work, engine), samplePath, blocks, pages })
    log(`${sample.length} blocks sampled from ${small.path}, ${entries} entries a block; ${blocks.toLocaleString('en-US')} blocks a run`)
    const workload = engineFigures(0, await runEngine(spec('none', 0)), describeMachine().loadAverage)
    log(`the batches built alone: ${workload.closedCpuMicrosPerBlock} µs of CPU a block`)
    const figures: EngineFigures[] = []
    for (let round = 1; round <= Number(values.rounds); round++) {
      for (const engine of engines) {
        const figure = engineFigures(round, await runEngine(spec(engine, Number(values.pages))), describeMachine().loadAverage)
        figures.push(figure)
        log(
          `round ${round}, ${engine}: ${figure.blocksPerSecond.toLocaleString('en-US')} blocks/s, ${figure.closedCpuMicrosPerBlock} µs a block, write amplification ${figure.writeAmplification}, ${figure.diskBytesPerBlock} bytes a block, deep page ${figure.firstRead.p50} / ${figure.againRead.p50} ms (load average ${figure.loadAverage})`,
        )
      }
    }
    const verdicts = engineVerdicts(figures)
    const results = {
      machine,
      blocks,
      records: sample.length,
      entriesPerBlock: entries,
      settings: engineSettings,
      workload,
      figures,
      verdicts,
    }
    const resultsPath = join(benchDataDir, 'engines-results.json')
    writeFileSync(resultsPath, `${JSON.stringify(results, null, 2)}\n`)
    const settings = [...new Set(['none' as const, ...engines])].map((engine) => `- ${engine}: ${engineSettings[engine]}`)
    process.stdout.write(
      `${formatEngineRuns(figures)}\n\n${entries} entries a block (record, hash and payload entries, the transaction index's).\nThe batches built and dropped, no engine: ${workload.closedCpuMicrosPerBlock} µs of CPU a block.\n${settings.join('\n')}\n\n${formatVerdicts(verdicts)}\n`,
    )
    log(`wrote ${resultsPath}`)
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error))
  process.exitCode = 1
})
