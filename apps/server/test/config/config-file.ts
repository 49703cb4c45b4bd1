import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { readConfigFile } from '../../src/config/config-file.js'

function file(t: Test, content: string): string {
  const path = join(t.testdir(), 'weft.json')
  writeFileSync(path, content)
  return path
}

t.test('a file names settings by flag or camelCase, with JSON values or flag text', async (t) => {
  const path = file(
    t,
    JSON.stringify({ port: 9000, 'block-delay': 0.5, forkRate: '0.2', devnet: 'on', 'keep-alive': 0, serviceDate: '2031-01-01T00:00:00Z' }),
  )
  const source = `file ${path}`
  t.same(readConfigFile(path), {
    port: { value: 9000, source },
    blockDelay: { value: 0.5, source },
    forkRate: { value: 0.2, source },
    devnet: { value: true, source },
    keepAlive: { value: 0, source },
    serviceDate: { value: '2031-01-01T00:00:00Z', source },
  })
})

t.test('a file that cannot be used is refused with its name and what is wrong', async (t) => {
  const cases: Array<[string, RegExp]> = [
    ['{"port": 70000}', /^Expected port in .*weft\.json to be an integer from 0 to 65535, received 70000$/],
    ['{"port": "x"}', /^Expected port in .*weft\.json to be an integer from 0 to 65535, received "x"$/],
    ['{"colour": "blue"}', /^Expected keys of .*weft\.json to be settings \(host, .*\), received "colour"$/],
    ['{"bodyLimit": 5}', /received "bodyLimit"$/],
    ['{"blockDelay": 1, "block-delay": 2}', /^Expected .*weft\.json to give blockDelay once, received both blockDelay and block-delay$/],
    ['[1]', /to hold a JSON object, received \[1\]$/],
    ['{port: 1}', /^Expected the configuration file .*weft\.json to be JSON: /],
    ['{"devnet": 1}', /^Expected devnet in .* to be true or false, received 1$/],
  ]
  for (const [content, message] of cases) t.throws(() => readConfigFile(file(t, content)), { code: 'INVALID_CONFIG', message }, content)
  t.throws(() => readConfigFile(join(t.testdir(), 'missing.json')), {
    code: 'INVALID_CONFIG',
    message: /^Expected a readable configuration file at /,
  })
})
