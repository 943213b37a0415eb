// The public surface (ARCHITECTURE.md §2): every name the API reports list (api/*.api.md, checked
// against dist/ by `npm run api:check` in CI) is on the docs' reference page, so no export ships
// without a reader.
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { expect, test } from 'vitest'

const root = resolve(import.meta.dirname, '../..')
const EXPORT =
  /^export (?:declare )?(?:abstract )?(?:function|const|class|interface|type|enum) ([A-Za-z0-9_]+)/gm

function exportedNames(): Set<string> {
  const names = new Set<string>()
  for (const file of readdirSync(join(root, 'api')).filter((name) => name.endsWith('.api.md'))) {
    for (const match of readFileSync(join(root, 'api', file), 'utf8').matchAll(EXPORT)) {
      names.add(match[1] as string)
    }
  }
  return names
}

test('every exported name is on the public API reference page', () => {
  const page = readFileSync(join(root, 'docs/reference/api.md'), 'utf8')
  const listed = new Set([...page.matchAll(/`([A-Za-z][A-Za-z0-9_]*)`/g)].map((m) => m[1]))
  const names = exportedNames()
  expect(names.size).toBeGreaterThan(0)
  expect([...names].filter((name) => !listed.has(name))).toEqual([])
})
