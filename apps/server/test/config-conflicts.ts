import t from 'tap'
import { resolveConfig } from '../src/config.js'
import { devnetCanMine } from '../src/config-conflicts.js'

t.test('the devnet producer is refused on networks whose targets a CPU cannot mine, with the fix', async (t) => {
  t.same((['mainnet01', 'testnet06', 'testnet04', 'recap-development', 'development', 'test-singleton'] as const).filter(devnetCanMine), [
    'testnet06',
    'development',
    'test-singleton',
  ])
  t.throws(() => resolveConfig({ network: 'mainnet01', devnet: true }), {
    code: 'INVALID_CONFIG',
    message:
      'The devnet producer cannot mine mainnet01: its targets are real proof-of-work targets, far too hard for a CPU. ' +
      'Fix: turn the producer off (--no-devnet), or serve a development network (--network development)',
  })
  t.throws(() => resolveConfig({ network: 'testnet04', devnet: true }), { message: /cannot mine testnet04/ })
  t.equal(resolveConfig({ network: 'mainnet01' }).devnet, false, 'off by default there, so no conflict')
})

t.test('producer settings given while the producer is off are refused, defaults are not', async (t) => {
  t.throws(() => resolveConfig({ devnet: false, blockDelay: 2 }), {
    message: 'block delay only applies to the devnet producer, which is off. Fix: drop them, or turn the producer on (--devnet)',
  })
  t.throws(() => resolveConfig({ network: 'mainnet01', forkRate: 0.1, blockDelay: 1 }), {
    message: /^block delay and fork rate only apply/,
  })
  t.equal(resolveConfig({ devnet: false }).forkRate, 0.05, 'the default fork rate is no conflict')
  t.equal(resolveConfig({ devnet: true, blockDelay: 2 }).blockDelay, 2)
})
