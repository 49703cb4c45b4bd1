import { type ChildProcess, spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { fill } from '@weft/devnet'
import { openStore } from '@weft/store'
import { eventually, freshFolder } from '@weft/test-kit'
import t from 'tap'
import { startServer } from '../src/index.js'
import { startNode } from './fixtures/node.js'
import { assertSameNode, caughtUp, getText, startFollower } from './fixtures/upstreams.js'

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
const base = '/chain/0.0/development'

// A follower left running (this file timed out) would hold the runner's stderr open: kill it on the way out, whatever the way.
const children = new Set<ChildProcess>()
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL')
})

// Starts the built `weft-server` as a user would; resolves with the process and its URL once it listens.
async function spawnFollower(upstream: string, data: string): Promise<{ child: ChildProcess; url: string }> {
  // Info level: the server's JSON log line `listening` carries its URL.
  const child = spawn(process.execPath, [cli, '--upstream', upstream, '--data', data, '--port', '0', '--log-level', 'info'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  children.add(child)
  child.once('exit', () => children.delete(child))
  const url = await new Promise<string>((resolve, reject) => {
    // The reader keeps draining the log after this, so the child never blocks on a full pipe.
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const entry = JSON.parse(line) as { msg?: string; url?: string }
      if (entry.msg === 'listening' && entry.url !== undefined) resolve(entry.url)
    })
    child.once('exit', (code) => reject(new Error(`weft-server exited with ${code} before listening`)))
  })
  return { child, url }
}

async function sigkill(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGKILL')
  await exited
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

t.test(
  'a follower killed with SIGKILL three times, during its copy and while following, ends with every page of its upstream',
  async (t) => {
    const upstreamData = freshFolder(t)
    const seeded = await openStore({ path: upstreamData, network: 'development' })
    await fill(seeded, { blocks: 800, forkRate: 0.2, seed: 'sigkill' })
    await seeded.close()
    const producing = await startServer({
      host: '127.0.0.1',
      port: 0,
      data: upstreamData,
      devnet: true,
      blockDelay: 0.5,
      forkRate: 0.3,
      logLevel: 'silent',
    })
    t.teardown(() => producing.close())
    const data = freshFolder(t)
    const moments: string[] = []
    for (let kill = 1; kill <= 3; kill++) {
      const { child, url } = await spawnFollower(producing.url, data)
      t.teardown(() => void child.kill('SIGKILL'))
      if (kill <= 2) {
        // During the copy: a random moment soon after it began.
        await pause(50 + Math.random() * 400)
        const { text } = await getText(`${url}/ready`)
        moments.push((JSON.parse(text) as { phase: string }).phase)
      } else {
        // While following: once caught up, a random moment later.
        t.ok(await eventually(async () => (await getText(`${url}/ready`)).status === 200), `run ${kill} caught up`)
        await pause(Math.random() * 800)
        moments.push('follow')
      }
      await sigkill(child)
    }
    t.comment(`killed during: ${moments.join(', ')}`)
    const { port } = producing
    await producing.close()
    const upstream = await startNode(t, { data: upstreamData, port })
    const { server: follower } = await startFollower(t, [upstream.url], { data })
    t.ok(await eventually(() => caughtUp(upstream, follower)), 'the follower, restarted with the same flags, caught up')
    await assertSameNode(t, upstream, follower, base)
  },
)
