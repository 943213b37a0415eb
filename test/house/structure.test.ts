// The rules of the house (ARCHITECTURE.md, "Rules a change must keep"), read from the imports of
// the shipped code: no import circles, the core never imports Vitest, the judge reaches the
// cassettes through one bridge, and the cassette layer never reaches up into the judge or the
// scorers. Type-only imports count: a circle of types is still a circle to a reader.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { expect, test } from 'vitest'

const root = resolve(import.meta.dirname, '../..')
const FOLDERS = ['src', 'matchers', 'evals', 'reporters']

function sourceFiles(folder: string): string[] {
  const out: string[] = []
  for (const name of readdirSync(folder)) {
    const path = join(folder, name)
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path))
    else if (/\.(ts|mts)$/.test(name) && !name.endsWith('.d.ts')) out.push(path)
  }
  return out
}

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])([^'"]+)\1/g

/** Every module a file names, relative ones resolved to repository paths. */
function importsOf(file: string): { relative: string[]; packages: string[] } {
  const text = readFileSync(file, 'utf8')
  const rel: string[] = []
  const packages: string[] = []
  for (const match of text.matchAll(SPECIFIER)) {
    const spec = match[2] as string
    if (!spec.startsWith('.')) {
      packages.push(spec)
      continue
    }
    const base = resolve(dirname(file), spec)
    const found = [`${base}.ts`, join(base, 'index.ts'), base].find((candidate) => {
      try {
        return statSync(candidate).isFile()
      } catch {
        return false
      }
    })
    if (found) rel.push(relative(root, found))
  }
  return { relative: rel, packages }
}

const files = FOLDERS.flatMap((folder) => sourceFiles(join(root, folder))).map((file) =>
  relative(root, file),
)
const graph = new Map(files.map((file) => [file, importsOf(join(root, file))]))

test('no module of src, matchers, evals or reporters imports itself through a circle', () => {
  const circles: string[] = []
  const state = new Map<string, 'open' | 'done'>()
  const stack: string[] = []
  const visit = (file: string) => {
    state.set(file, 'open')
    stack.push(file)
    for (const next of graph.get(file)?.relative ?? []) {
      if (!graph.has(next)) continue
      if (state.get(next) === 'open') {
        circles.push([...stack.slice(stack.indexOf(next)), next].join(' -> '))
      } else if (!state.has(next)) visit(next)
    }
    stack.pop()
    state.set(file, 'done')
  }
  for (const file of files) if (!state.has(file)) visit(file)
  expect(circles).toEqual([])
})

// The one exception: the CLI loads the project's Vitest config (to find the cassette folder) with
// Vitest's own resolver, lazily, and only when --dir is not given. Nothing else reaches it.
const LOADS_VITEST_CONFIG = 'src/cli/cassette-dir.ts'

test('the core (src/) never imports vitest', () => {
  const offenders = files.filter(
    (file) =>
      file.startsWith('src/') &&
      file !== LOADS_VITEST_CONFIG &&
      graph.get(file)?.packages.some((name) => name === 'vitest' || name.startsWith('vitest/')),
  )
  expect(offenders).toEqual([])
})

test('the CLI loads vitest lazily, and nothing of the core imports the file that does', () => {
  expect(readFileSync(join(root, LOADS_VITEST_CONFIG), 'utf8')).not.toMatch(
    /^import\s[^\n]*['"]vitest/m,
  )
  const importers = files.filter((file) => graph.get(file)?.relative.includes(LOADS_VITEST_CONFIG))
  expect(importers.every((file) => file.startsWith('src/cli/'))).toBe(true)
})

test('in src/judge/ only the cassette bridge imports from src/cassettes/', () => {
  const offenders = files.filter(
    (file) =>
      file.startsWith('src/judge/') &&
      file !== 'src/judge/cassette-bridge.ts' &&
      graph.get(file)?.relative.some((target) => target.startsWith('src/cassettes/')),
  )
  expect(offenders).toEqual([])
})

test('src/cassettes/ imports nothing from the layers above it (judge, scorer, rubric, loop)', () => {
  const above = ['src/judge/', 'src/scorer/', 'src/rubric/', 'src/loop/', 'src/testing/']
  const arrows = files.flatMap((file) =>
    // The entry point `rubricate/cassettes` re-exports `cached()` from the judge: it is the package's
    // face, above every layer, not part of the cassette layer.
    file.startsWith('src/cassettes/') && file !== 'src/cassettes/index.ts'
      ? (graph.get(file)?.relative ?? [])
          .filter((target) => above.some((folder) => target.startsWith(folder)))
          .map((target) => `${file} -> ${target}`)
      : [],
  )
  expect(arrows).toEqual([])
})

// ARCHITECTURE.md §1: the floors of src/, from the bottom up. A file imports only from its own
// floor and the floors below it (type-only imports count); records/, the shared types, imports
// nothing of src/. A file in a place no floor names fails too: a new folder is given its floor here
// and in ARCHITECTURE.md.
const FLOORS: readonly (readonly string[])[] = [
  ['src/records/'],
  ['src/errors.ts', 'src/messages.ts', 'src/runtime/', 'src/config/'],
  ['src/output/'],
  ['src/cassettes/'],
  ['src/output-safety/'],
  ['src/judge/'],
  ['src/scorer/'],
  ['src/rubric/'],
  ['src/similarity/', 'src/budget/', 'src/grounding/', 'src/pairwise/'],
  ['src/loop/'],
  ['src/trajectory/'],
  ['src/conversation/'],
  ['src/calibrate/'],
  ['src/history/'],
  ['src/testing/'],
  ['src/cli/'],
  ['src/index.ts'],
]

// The upward imports the design keeps, each for a reason; any other one fails.
const KEPT_UPWARD = new Set([
  // Every message passes the terminal gate once, in format(); the gate redacts with the secrets
  // the cassette layer knows, so it sits above the foundation.
  'src/messages.ts -> src/output-safety/terminal-text.ts',
  // The worker's runtime creates and holds the cassette stores, the session, the secret registry
  // and the id aliases: it is where the worker is composed, and only its type crosses back down.
  'src/runtime/runtime.ts -> src/cassettes/exchange/id-aliases.ts',
  'src/runtime/runtime.ts -> src/cassettes/run/cassette-session.ts',
  'src/runtime/runtime.ts -> src/cassettes/redaction/redaction.ts',
  'src/runtime/runtime.ts -> src/cassettes/store/cassette-store.ts',
  // The entry point `rubricate/cassettes` re-exports cached() from the judge (see above).
  'src/cassettes/index.ts -> src/judge/cassette-bridge.ts',
])

function floorOf(file: string): number {
  return FLOORS.findIndex((floor) => floor.some((place) => file.startsWith(place)))
}

test('every file of src/ stands on a floor, and imports only from its own floor or below', () => {
  const unplaced = files.filter((file) => file.startsWith('src/') && floorOf(file) < 0)
  expect(unplaced).toEqual([])
  const upward = files.flatMap((file) =>
    file.startsWith('src/')
      ? (graph.get(file)?.relative ?? [])
          .filter((target) => target.startsWith('src/') && floorOf(target) > floorOf(file))
          .map((target) => `${file} -> ${target}`)
          .filter((arrow) => !KEPT_UPWARD.has(arrow))
      : [],
  )
  expect(upward).toEqual([])
})

test('records/ is a leaf: the shared types import nothing else of the package', () => {
  const arrows = files.flatMap((file) =>
    file.startsWith('src/records/')
      ? (graph.get(file)?.relative ?? [])
          .filter((target) => !target.startsWith('src/records/'))
          .map((target) => `${file} -> ${target}`)
      : [],
  )
  expect(arrows).toEqual([])
})

// ARCHITECTURE.md §12: the process's state is one object, the runtime, in named parts with a
// lifetime each (src/runtime/state.ts), the one module that hangs it on globalThis: no module
// keeps a slot of its own there.
test("the process's state hangs on globalThis in one place: the runtime's named parts", () => {
  const holders = files.filter((file) =>
    /Symbol\.for\(\s*['"]rubricate\.runtime['"]/.test(readFileSync(join(root, file), 'utf8')),
  )
  expect(holders).toEqual(['src/runtime/state.ts'])
  const slotted = files.filter((file) =>
    /\bstateSlot\b/.test(readFileSync(join(root, file), 'utf8')),
  )
  expect(slotted).toEqual([])
})
