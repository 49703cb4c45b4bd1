// `node tools/repo-checks/dist/write-index-fixture.js`: writes the devnet blocks of @weft/index's tests.
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { INDEX_FIXTURE, indexFixtureText, mineIndexFixture } from './index-fixture.js'

const root = fileURLToPath(new URL('../../../', import.meta.url))
const blocks = mineIndexFixture()
writeFileSync(`${root}${INDEX_FIXTURE}`, indexFixtureText(blocks))
process.stdout.write(`wrote ${blocks.length} blocks to ${INDEX_FIXTURE}\n`)
