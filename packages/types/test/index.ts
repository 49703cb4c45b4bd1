import { Kind } from '@sinclair/typebox'
import t from 'tap'
import * as types from '../src/index.js'

t.test('the schemas record holds every exported schema by its own name', async (t) => {
  const exported = Object.entries(types).filter(([name, v]) => name !== 'schemas' && typeof v === 'object' && v !== null && Kind in v)
  t.same(Object.keys(types.schemas).sort(), exported.map(([name]) => name).sort())
  for (const [name, schema] of exported) t.equal((types.schemas as Record<string, unknown>)[name], schema, name)
})

t.test('every schema is plain JSON Schema that survives JSON serialization', async (t) => {
  for (const [name, schema] of Object.entries(types.schemas)) {
    const json = JSON.parse(JSON.stringify(schema)) as Record<string, unknown>
    t.ok(typeof json.type === 'string' || Array.isArray(json.anyOf), name)
  }
})
