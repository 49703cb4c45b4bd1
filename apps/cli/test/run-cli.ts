import { readFileSync } from 'node:fs'
import { encodeHash } from '@weft/hash-text'
import { openStore } from '@weft/store'
import t, { type Test } from 'tap'
import { commandNames, weft, weftInProcess } from './fixtures/cli.js'
import { filledNode, serveData } from './fixtures/nodes.js'
import { resettingProxy } from './fixtures/resetting-proxy.js'

t.test('--help prints the usage of every command and exits 0', async (t) => {
  const main = await weft(['--help'])
  t.equal(main.code, 0)
  for (const name of commandNames) t.match(main.stdout, new RegExp(`^  ${name} `, 'm'), `the overview lists ${name}`)
  const runs = await Promise.all(commandNames.map((name) => weftInProcess([name, '-h'])))
  runs.forEach((run, i) => {
    t.equal(run.code, 0, `${commandNames[i]} --help exits 0`)
    t.match(run.stdout, new RegExp(`^Usage: weft ${commandNames[i]}`), `${commandNames[i]} --help shows its usage`)
  })
  const built = await weft(['mirror', '--help'])
  t.equal(built.code, 0, 'the built command prints a command help too')
  t.match(built.stdout, /^Usage: weft mirror/)
})

t.test('--version prints the package version and exits 0', async (t) => {
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
  const run = await weftInProcess(['--version'])
  t.same([run.code, run.stdout], [0, `${version}\n`])
})

t.test('bad usage prints the reason and the usage on stderr and exits 2', async (t) => {
  const cases: Array<[string[], RegExp]> = [
    [[], /^Usage: weft <command>/],
    [['frobnicate'], /unknown command "frobnicate"/],
    [['toString'], /unknown command "toString"/],
    [['blocks'], /--chain is required/],
    [['blocks', '--chain', 'x'], /--chain must be an integer >= 0/],
    [['blocks', '--chain', '1', '--page-size', '0'], /--page-size must be an integer >= 1/],
    [['blocks', '--chain', '1', '--bogus'], /Unknown option '--bogus'/],
    [['blocks', '--chain', '1', 'extra'], /Unexpected argument 'extra'/],
    [['branch', '--chain', '1'], /--upper is required/],
    [['blocks', '--chain', '1', '--next', 'garbage'], /--next must be inclusive:<hash> or exclusive:<hash>/],
    [['blocks', '--chain', '1', '--next', 'inclusive:short'], /--next must be inclusive:<hash>/],
    [['branch', '--chain', '1', '--upper', 'nothash'], /--upper must be a block hash \(43 base64url characters\), got "nothash"/],
    [['branch', '--chain', '1', '--upper', encodeHash(Buffer.alloc(32, 1)), '--lower', 'x'], /--lower must be a block hash/],
    [['info', '--network', 'moon'], /--network must be/],
    [['info', '--profile', 'x'], /--profile must be spec or chainweb/],
    [['info', '--url', 'not a url'], /--url must be an http or https URL, got "not a url"/],
    [['health', '--url', 'ftp://127.0.0.1/'], /--url must be an http or https URL/],
    [['mirror', '--data', 'd'], /--from is required/],
    [['mirror', '--from', 'http://127.0.0.1:9'], /--data is required/],
    [['mirror', '--from', '127.0.0.1:9', '--data', 'd'], /--from must be an http or https URL/],
    [['mirror', '--from', 'http://127.0.0.1:9', '--data', 'd', '--page-size='], /--page-size must be an integer >= 1/],
    [['mirror', '--from', 'http://127.0.0.1:9', '--data', 'd', '--resume-margin', 'x'], /--resume-margin must be an integer >= 0/],
    [['follow', '--depth=-1'], /--depth must be an integer/],
    [['follow', '--count', 'x'], /--count must be an integer/],
  ]
  for (const [args, message] of cases) {
    const run = await weftInProcess(args)
    t.equal(run.code, 2, `${args.join(' ') || '(no arguments)'} exits 2`)
    t.match(run.stderr, message)
    t.equal(run.stdout, '')
  }
  const command = await weftInProcess(['blocks'])
  t.match(command.stderr, /^weft blocks: --chain is required\n\nUsage: weft blocks --chain N/, 'the reason, then the usage of the command')
  const help = await weftInProcess(['help'])
  t.equal(help.code, 0)
  t.match(help.stdout, /^Usage: weft <command>/, '`weft help` prints the overview on stdout')
  t.equal((await weft(['blocks', '--chain'])).code, 2, 'the built command exits 2 as well')
})

t.test('failures print a message with the code on stderr and exit 1', async (t) => {
  const { server } = await filledNode(t, { blocks: 200 })
  const url = server.url
  const unknown = encodeHash(Buffer.alloc(32, 1))
  const notFound = await weftInProcess(['blocks', '--url', url, '--chain', '0', '--next', `inclusive:${unknown}`])
  t.equal(notFound.code, 1)
  t.equal(notFound.stdout, '')
  t.match(notFound.stderr, /^weft blocks: .*\[CURSOR_NOT_FOUND 404\]\n$/)
  const stopped = await serveData(t, { data: freshFolder(t) })
  await stopped.close()
  const unreachable = await weftInProcess(['info', '--url', stopped.url])
  t.equal(unreachable.code, 1)
  t.match(unreachable.stderr, /\[NETWORK_ERROR\]/)
  // A connection reset while a page's body arrives: the command fails the same way, and does not print half a page.
  const proxy = await resettingProxy(t, url, [{ request: /^GET \S*\/chain\/0\/block/, times: 1, bodyBytes: 2048 }])
  const cut = await weftInProcess(['blocks', '--url', proxy.url, '--chain', '0'])
  t.same([cut.code, cut.stdout, proxy.resets()], [1, '', 1])
  t.match(cut.stderr, /^weft blocks: .*\[NETWORK_ERROR\]\n$/)
  const whole = await weftInProcess(['blocks', '--url', proxy.url, '--chain', '0'])
  t.equal(whole.code, 0, 'the same command through the same proxy, not cut, succeeds')
  t.ok(whole.lines.length > 0)
  const mismatch = await weftInProcess(['mirror', '--from', url, '--data', await singletonFolder(t), '--once'])
  t.equal(mismatch.code, 1)
  t.match(mismatch.stderr, /\[NETWORK_MISMATCH\]/)
  const reorg = await weftInProcess(['follow', '--url', url, '--depth', '0', '--chain', '0', '--count', '1'], {
    signal: AbortSignal.timeout(20_000),
  })
  t.equal(reorg.code, 0)
})

async function singletonFolder(t: Test): Promise<string> {
  const data = freshFolder(t)
  await (await openStore({ path: data, network: 'test-singleton' })).close()
  return data
}

import { freshFolder } from '@weft/test-kit'
