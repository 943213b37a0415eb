// What npm and a registry page read from package.json, checked without packing.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { DOCS_SITE } from '../../src/errors'
import { repoRoot } from '../support/run-vitest'

const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'))

test('the package says where its repository, issue tracker and home page (the docs site every error links to) are', () => {
  expect(pkg.repository).toEqual({ type: 'git', url: expect.stringMatching(/^git\+https:\/\//) })
  expect(pkg.homepage).toBe(DOCS_SITE)
  expect(pkg.bugs.url).toMatch(/^https:\/\/.*\/issues$/)
})

test('vitest is a required peer: four entries (setup, matchers, evals, plugin) fail without it', () => {
  expect(pkg.peerDependencies.vitest).toBeDefined()
  expect(pkg.peerDependenciesMeta.vitest).toBeUndefined()
})

test('runtime dependencies are ranges, so a project dedupes them with its own copies', () => {
  for (const [name, range] of Object.entries(pkg.dependencies as Record<string, string>)) {
    expect(range, name).toMatch(/^[\^~>]/)
  }
})
