import { readFileSync } from 'node:fs'
import t from 'tap'
import { INDEX_FIXTURE, indexFixtureText, mineIndexFixture } from '../src/index-fixture.js'

t.test(
  "@weft/index's devnet blocks are what the devnet mines today (else: node tools/repo-checks/dist/write-index-fixture.js)",
  async (t) => {
    const committed = readFileSync(new URL(`../../../${INDEX_FIXTURE}`, import.meta.url), 'utf8')
    const fresh = indexFixtureText(mineIndexFixture())
    t.ok(committed === fresh, `${INDEX_FIXTURE} matches a fresh mining (${fresh.length} characters)`)
  },
)
