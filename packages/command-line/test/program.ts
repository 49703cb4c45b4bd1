import { PassThrough } from 'node:stream'
import { WeftError } from '@weft/errors'
import t from 'tap'
import { type CliIo, type Command, type Program, programHelp, runProgram, UsageError, type Values, writeText } from '../src/index.js'

// What a run printed, and its exit code.
async function run(
  program: Program,
  argv: string[],
  extra: Partial<CliIo> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  let out = ''
  let err = ''
  stdout.on('data', (chunk: Buffer) => (out += chunk))
  stderr.on('data', (chunk: Buffer) => (err += chunk))
  const code = await runProgram(program, argv, { stdout, stderr, ...extra })
  return { code, stdout: out, stderr: err }
}

class CodedError extends WeftError {
  static override readonly codes = ['SOMETHING_BROKE'] as const
}

const seen: Array<{ values: Values; positionals: readonly string[] }> = []
const echo: Command = {
  summary: 'print what it was given',
  help: 'Usage: tool echo [--word W]',
  flags: { word: { type: 'string' }, loud: { type: 'boolean' } },
  positionals: true,
  async run(values, io, positionals) {
    seen.push({ values, positionals })
    if (values.word === 'usage') throw new UsageError('--word must not be usage')
    if (values.word === 'coded') throw new CodedError('SOMETHING_BROKE', 'it broke')
    if (values.word === 'plain') throw new Error('plainly broken')
    if (values.word === 'string') throw 'a thrown string'
    await writeText(io.stdout, `${String(values.word)} ${positionals.join(' ')}\n`)
  },
}
const strict: Command = { summary: 'take no words', help: 'Usage: tool strict', flags: {}, run: async () => undefined }
const misconfigured: Command = {
  summary: 'a flag parseArgs refuses',
  help: 'Usage: tool bad',
  flags: { x: { type: 'string', short: 'xx' } },
  run: async () => undefined,
}
const tool: Program = {
  name: 'tool',
  version: '1.2.3',
  description: 'A tool for tests.',
  commands: { echo, strict, 'a-long-name': misconfigured },
}

t.test("the program's help lists its commands, aligned", async (t) => {
  t.equal(
    programHelp(tool),
    `Usage: tool <command> [options]

A tool for tests.

Commands:
  echo        print what it was given
  strict      take no words
  a-long-name a flag parseArgs refuses

Run \`tool <command> --help\` for the options of a command; \`tool --version\` prints the version.`,
  )
  t.match(programHelp({ ...tool, commands: { echo } }), /\n {2}echo {5}print/, 'names pad to eight at least')
})

t.test('help and version print on stdout and exit 0; no command prints the help on stderr and exits 2', async (t) => {
  for (const flag of ['--help', '-h', 'help'])
    t.same(await run(tool, [flag]), { code: 0, stdout: `${programHelp(tool)}\n`, stderr: '' }, flag)
  t.same(await run(tool, ['--version']), { code: 0, stdout: '1.2.3\n', stderr: '' })
  t.same(await run(tool, []), { code: 2, stdout: '', stderr: `${programHelp(tool)}\n` })
  t.same(await run(tool, ['echo', '--help']), { code: 0, stdout: 'Usage: tool echo [--word W]\n', stderr: '' })
})

t.test('a command runs with its flags and words', async (t) => {
  t.same(await run(tool, ['echo', '--word', 'hi', 'a', 'b']), { code: 0, stdout: 'hi a b\n', stderr: '' })
  t.same(seen.at(-1), { values: { word: 'hi' }, positionals: ['a', 'b'] })
})

t.test('bad usage says why, then the usage of the command or of the program, and exits 2', async (t) => {
  for (const name of ['frobnicate', 'toString']) {
    const unknown = await run(tool, [name])
    t.same([unknown.code, unknown.stdout], [2, ''])
    t.equal(
      unknown.stderr,
      `tool: unknown command ${JSON.stringify(name)}\n\n${programHelp(tool)}\n`,
      `${name} is no command of the program`,
    )
  }
  t.same(await run(tool, ['echo', '--word', 'usage']), {
    code: 2,
    stdout: '',
    stderr: 'tool echo: --word must not be usage\n\nUsage: tool echo [--word W]\n',
  })
  t.match(await run(tool, ['echo', '--colour']), { code: 2, stderr: /^tool echo: Unknown option '--colour'/ })
  t.match(await run(tool, ['echo', '--word']), { code: 2, stderr: /^tool echo: Option '--word <value>' argument missing/ })
  t.match(await run(tool, ['strict', 'extra']), { code: 2, stderr: /^tool strict: Unexpected argument 'extra'/ })
})

t.test('a failure prints its message and code and exits 1', async (t) => {
  t.same(await run(tool, ['echo', '--word', 'coded']), { code: 1, stdout: '', stderr: 'tool echo: it broke [SOMETHING_BROKE]\n' })
  t.same(await run(tool, ['echo', '--word', 'plain']), { code: 1, stdout: '', stderr: 'tool echo: plainly broken\n' })
  t.same(await run(tool, ['echo', '--word', 'string']), { code: 1, stdout: '', stderr: 'tool echo: a thrown string\n' })
  const named = { ...tool, failureCode: (error: unknown) => (error instanceof CodedError ? 'BROKE 500' : undefined) }
  t.match(await run(named, ['echo', '--word', 'coded']), { stderr: 'tool echo: it broke [BROKE 500]\n' })
  t.match(await run(named, ['echo', '--word', 'plain']), { stderr: 'tool echo: plainly broken\n' }, 'no code of its own: none shown')
  t.match(
    await run(tool, ['a-long-name']),
    { code: 1, stderr: /^tool a-long-name: .*\[ERR_PARSE_ARGS_INVALID_OPTION_VALUE\]|\[ERR_INVALID_ARG_VALUE\]/ },
    'a command whose flags parseArgs refuses fails',
  )
  const stdout = new PassThrough()
  stdout.write = () => {
    throw new Error('stdout is gone')
  }
  t.match(await run(tool, ['--help'], { stdout }), { code: 1, stderr: 'tool: stdout is gone\n' }, 'even printing the help may fail')
})

t.test('text is written when the stream takes it, or once it drained', async (t) => {
  const slow = new PassThrough({ highWaterMark: 4 })
  let drained = false
  const writing = writeText(slow, 'more than four bytes').then(() => {
    drained = true
  })
  await new Promise((resolve) => setImmediate(resolve))
  t.notOk(drained, 'a full stream makes the writer wait')
  slow.read()
  await writing
  t.ok(drained)
  t.equal(new UsageError('x').code, 'USAGE')
})
