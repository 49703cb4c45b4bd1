import { spawn } from 'node:child_process'
import { join } from 'node:path'
import t from 'tap'

// Runs src/cli.ts in a child node with the same loaders as this test (TypeScript, coverage).
const runBin = (args: string[], onStderr?: (text: string, child: ReturnType<typeof spawn>) => void) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, join(import.meta.dirname, '../src/cli.ts'), ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
      onStderr?.(stderr, child)
    })
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })

t.test('the bin prints its usage', async (t) => {
  const { code, stdout } = await runBin(['--help'])
  t.equal(code, 0)
  t.match(stdout, /^Usage: weft-devnet <command>/)
})

t.test('SIGTERM ends live cleanly, with its report', async (t) => {
  let sent = false
  const { code, stdout } = await runBin(['live', '--data', join(t.testdir(), 'data'), '--block-delay', '0.05'], (text, child) => {
    if (!sent && text.includes('producing on')) {
      sent = true
      setTimeout(() => child.kill('SIGTERM'), 300)
    }
  })
  t.equal(code, 0)
  t.match(stdout, /^produced \d+ blocks; heights/)
})
