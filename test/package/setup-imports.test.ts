// What the setup file loads in every test file, from the built package (ARCHITECTURE.md §10): a
// test file that makes no rubricate call must not pay for msw, `openai`, zod or the judge. They are
// loaded on first need, by `import()` or msw's `require`, never by a static import reachable from
// `rubricate/setup`. Needs `dist/` (`npm test` builds first).
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { expect, test } from 'vitest'

const dist = resolve(import.meta.dirname, '../../dist')

/** Every file and bare package a module reaches through static imports, from `entry`. */
function staticClosure(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>()
  const packages = new Set<string>()
  const visit = (file: string): void => {
    if (files.has(file)) return
    files.add(file)
    const text = readFileSync(file, 'utf8')
    // `import ... from "x"` and `import "x"` at the start of a line: esbuild's output.
    for (const [, specifier] of text.matchAll(/^import\s(?:[^'"]*?\sfrom\s)?["']([^"']+)["']/gms)) {
      if (!specifier) continue
      if (specifier.startsWith('.')) visit(join(dirname(file), specifier))
      else packages.add(specifier.replace(/^node:/, ''))
    }
  }
  visit(join(dist, entry))
  // The setup file's one `await import()` runs whenever it does: it counts as static.
  const top = readFileSync(join(dist, entry), 'utf8')
  for (const [, specifier] of top.matchAll(/^var .* = await import\(["'](\.[^"']+)["']\)/gm)) {
    if (specifier) visit(join(dist, specifier))
  }
  return { files: [...files], packages: [...packages].sort() }
}

test('rubricate/setup statically loads no msw, openai, zod, judge or scorer: they load on first need', () => {
  if (!existsSync(join(dist, 'setup.js'))) {
    throw new Error('dist/ is missing: run "npm run build" first (npm test does it for you).')
  }
  const { files, packages } = staticClosure('setup.js')
  // setup.js itself is one import and one call: Vitest evaluates it again for each test file.
  expect(files.some((file) => /setup-file-\w+\.js$/.test(file))).toBe(true)
  expect(
    packages.filter((name) => !/^[a-z_]+(\/[a-z_]+)?$/.test(name) || name === 'vitest'),
  ).toEqual(['vitest'])
  expect(packages).not.toContain('zod')
  const text = files.map((file) => readFileSync(file, 'utf8')).join('\n')
  // The judge, the rubric scorer and the scorer pipeline are not in it...
  expect(text).not.toMatch(
    /^\/\/ src\/(judge\/openai-judge|rubric\/rubric-scorer|scorer\/run-pipeline)\.ts$/m,
  )
  // ...and msw is required lazily, by the server that starts at the first request.
  expect(text).not.toMatch(/^import .*["']msw/m)
})
