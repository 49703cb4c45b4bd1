import t from 'tap'
import * as devnet from '../src/index.js'

t.test('the package entry names the public surface', async (t) => {
  for (const name of [
    'fill',
    'createProducer',
    'mineBlock',
    'runCli',
    'createRandom',
    'syntheticPayload',
    'Braid',
    'BraidMiner',
    'DevnetError',
    'InvalidDevnetOptionError',
    'TargetTooHardError',
  ]) {
    t.type((devnet as Record<string, unknown>)[name], 'function', name)
  }
  t.equal(devnet.DEFAULT_SEED, 'weft')
})
