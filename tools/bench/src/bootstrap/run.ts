// `pnpm bench:bootstrap`: the time a new node takes to start from a published snapshot of a large
// store (issue 35). The scale store of --blocks N (default 1,000,000; built once by bench:scale's
// generator, through the validated write path) is published as an operator would: weft-server
// --snapshot-dir writes the snapshot and its manifest, nginx serves the folder
// (deploy/nginx-snapshots.conf.template); then weft-server --bootstrap-from <manifest> on an empty
// folder downloads it over loopback, checks its SHA-256, imports it (every block validated) and listens.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { ChildProcessError } from '../errors.js'
import { round } from '../figure.js'
import { describeMachine } from '../machine.js'
import { repoRoot } from '../paths.js'
import { ensureScaleStore, scaleSpec } from '../scale/dataset.js'
import { type LogLine, logLines, publishFolder, type Running, startWeft, stop, waitForLine } from './processes.js'

const { values } = parseArgs({
  options: {
    blocks: { type: 'string', default: '1000000' },
    'fork-rate': { type: 'string', default: '0.02' },
    keep: { type: 'boolean', default: false },
  },
})
const log = (line: string): void => void process.stderr.write(`bench:bootstrap: ${line}\n`)

// The bootstrap's log lines, in order: the download starts, the import starts (download and checksum done), the import ends.
const phases = [
  'bootstrap: downloading a snapshot',
  'bootstrap: importing the snapshot (every block is validated)',
  'bootstrap: the snapshot is imported; the node starts from it',
] as const

function line(lines: readonly LogLine[], msg: string): LogLine {
  const found = lines.find((entry) => entry.msg === msg)
  if (found === undefined) throw new ChildProcessError(`Expected the bootstrapping node to log "${msg}", it did not`)
  return found
}

async function main(): Promise<void> {
  const machine = describeMachine()
  log(`${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, node ${machine.node}, load average ${machine.loadAverage}`)
  const store = await ensureScaleStore(scaleSpec(Number(values.blocks), Number(values['fork-rate'])), log)
  const dir = mkdtempSync(join(tmpdir(), 'weft-bench-bootstrap-'))
  // nginx runs its workers as nobody when started as root: they must reach the published folder.
  chmodSync(dir, 0o711)
  const published = join(dir, 'published')
  const running: Running[] = []
  try {
    log(`publishing ${store.name}: weft-server --snapshot-dir writes its snapshot`)
    const publisher = startWeft(
      ['--no-devnet', '--data', store.path, '--network', store.network, '--snapshot-dir', published, '--snapshot-every', '86400'],
      join(dir, 'publisher.log'),
    )
    running.push(publisher)
    const written = await waitForLine(publisher, 'snapshot written')
    await stop(publisher)
    const nginxDir = join(dir, 'nginx')
    mkdirSync(nginxDir)
    const { nginx, url } = await publishFolder(published, nginxDir)
    running.push(nginx)
    log(`${written.blocks} blocks, ${written.bytes} bytes, written in ${written.seconds} s; served by nginx at ${url}; bootstrapping`)
    const started = Date.now()
    const node = startWeft(
      ['--no-devnet', '--data', join(dir, 'bootstrapped'), '--network', store.network, '--bootstrap-from', `${url}/manifest.json`],
      join(dir, 'bootstrapped.log'),
    )
    running.push(node)
    const listening = await waitForLine(node, 'listening')
    const lines = logLines(node.log)
    const [download, importing, imported] = phases.map((msg) => line(lines, msg).time) as [number, number, number]
    const blocks = Number(line(lines, phases[2]).blocks)
    if (blocks !== written.blocks)
      throw new ChildProcessError(`Expected the bootstrap to import the ${written.blocks} blocks published, it imported ${blocks}`)
    await stop(node)
    await stop(nginx)
    const seconds = (from: number, to: number): number => round((to - from) / 1000, 1)
    const results = {
      machine,
      store: { name: store.name, blocks: store.build.blocks, builtNow: store.builtNow },
      snapshot: { blocks, bytes: written.bytes, writeSeconds: written.seconds },
      bootstrap: {
        downloadAndChecksumSeconds: seconds(download, importing),
        importSeconds: seconds(importing, imported),
        startToListeningSeconds: seconds(started, listening.time),
        blocksPerSecond: Math.round(blocks / ((imported - download) / 1000)),
        importBlocksPerSecond: Math.round(blocks / ((imported - importing) / 1000)),
      },
      // The validated fill rate of the same store: insertMany of the generator's blocks, when it was built.
      fill: { blocksPerSecond: Math.round(store.build.blocks / store.build.insertSeconds), builtNow: store.builtNow },
    }
    writeFileSync(join(repoRoot, 'bench-bootstrap-results.json'), `${JSON.stringify(results, null, 2)}\n`)
    const b = results.bootstrap
    process.stdout.write(
      [
        `snapshot of ${store.name}: ${blocks.toLocaleString('en-US')} blocks, ${(Number(written.bytes) / 2 ** 20).toFixed(1)} MiB, written in ${written.seconds} s`,
        `bootstrap from nginx on 127.0.0.1: download + SHA-256 ${b.downloadAndChecksumSeconds} s, import ${b.importSeconds} s (${b.importBlocksPerSecond.toLocaleString('en-US')} blocks/s)`,
        `start to listening: ${b.startToListeningSeconds} s; ${b.blocksPerSecond.toLocaleString('en-US')} blocks/s from the first byte to the last block imported`,
        `validated fill rate of the store (${store.builtNow ? 'built in this run' : 'built in an earlier run'}): ${results.fill.blocksPerSecond.toLocaleString('en-US')} blocks/s`,
      ]
        .map((text) => `${text}\n`)
        .join(''),
    )
    log(`wrote ${join(repoRoot, 'bench-bootstrap-results.json')}`)
  } finally {
    for (const proc of running) await stop(proc)
    if (values.keep) log(`kept ${dir}`)
    else rmSync(dir, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error))
  process.exitCode = 1
})
