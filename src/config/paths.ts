import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { isAbsolute, join, relative, sep } from 'node:path'
import type { TestIdentity } from '../records/records'
import { runtimeState } from '../runtime/state'

/** The project root: set by the setup file, else the working directory. @internal */
export function projectRoot(): string {
  return runtimeState().run.root ?? process.cwd()
}

/** A path as shown in messages and commands: relative to the root when inside it, `/` separated. @internal */
export function displayPath(path: string): string {
  const root = projectRoot()
  const rel = relative(root, path)
  if (!rel || rel.startsWith('..') || isAbsolute(rel)) return path.split(sep).join('/')
  return rel.split(sep).join('/')
}

/** `<test file> > <test name>`, as stored in `recordedBy`. @internal */
export function testLabel(test: TestIdentity): string {
  return `${displayPath(test.file)} > ${test.name}`
}

/**
 * Where rubricate keeps scratch files (usage logs, the nearest-entry index, run counters):
 * `node_modules/.cache/rubricate` under the project root, or a folder in the system's temp dir when
 * the project has no `node_modules`. Never the cassette folder: it may be read-only, and it is
 * committed.
 * @internal
 */
export function scratchDir(root: string = projectRoot()): string {
  const [inProject, inTemp] = scratchDirs(root)
  return existsSync(join(root, 'node_modules')) ? inProject : inTemp
}

/**
 * Both places `scratchDir` may choose, whether or not `node_modules` exists now: a reader of a file
 * written in another process (the run marker) looks in both, since the folder may have appeared in
 * between.
 * @internal
 */
export function scratchDirs(root: string = projectRoot()): [inProject: string, inTemp: string] {
  const hash = createHash('sha256').update(root).digest('hex').slice(0, 12)
  return [join(root, 'node_modules', '.cache', 'rubricate'), join(tmpdir(), `rubricate-${hash}`)]
}

/** A run id made safe as a folder name. @internal */
export function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100)
}
