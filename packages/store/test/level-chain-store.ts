import { join } from 'node:path'
import t from 'tap'
import { openStore } from '../src/index.js'
import { chainStoreSuite } from '../src/suite/index.js'

// The contract suite against classic-level stores, each in a folder of its own.
const root = t.testdir()
let stores = 0
chainStoreSuite(
  (name, fn) => t.test(name, fn),
  (network, options) => openStore({ path: join(root, String(stores++)), network, ...options }),
)
