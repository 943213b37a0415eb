/**
 * `rubricate init --fast`: the Vitest config's `test.projects` split in two, the way the docs
 * recommend (docs/guide/fast-setup.md). Rubric and eval files (`*.rubric.test.ts`,
 * `*.eval.test.ts`) run in a project of their own whose files share workers (`isolate: false`,
 * `pool: 'threads'`); every other file keeps the suite's own settings. A config that already has
 * `projects`, or sets `include` at its top (a project that extends it would add to that list, not
 * replace it), or is not in a shape init edits, is refused with the lines to add by hand.
 */

import { codeOnly, syntaxError, type TypeScriptModule } from './config-edit'
import type { InitStep } from './init-project'

/** The files of the fast project, by name: `greet.rubric.test.ts`, `tickets.eval.test.ts`. @internal */
export const FAST_FILES = '**/*.{rubric,eval}.test.?(c|m)[jt]s?(x)'

// Vitest's own default exclude, kept: an `exclude` of a project replaces it.
const DEFAULT_EXCLUDE = ["'**/node_modules/**'", "'**/.git/**'"]

/** What init --fast says when it left a plugin call of the user's as it was. @internal */
export const FAST_ANNOTATIONS_NOTE =
  "add annotations: 'failures' to your rubricate() options for the fastest run: a passing assertion is then not a Vitest annotation (its verdicts stay in rubricate's reports and task.meta)"

/** The `projects` entry init adds, indented for a `test: {` block at two spaces. @internal */
export function fastProjectsLines(indent = '    '): string[] {
  return [
    `${indent}projects: [`,
    `${indent}  // Every file but rubric and eval files, with the suite's own settings.`,
    `${indent}  { extends: true, test: { name: 'unit', exclude: [${[...DEFAULT_EXCLUDE, `'${FAST_FILES}'`].join(', ')}] } },`,
    `${indent}  // Rubric and eval files share workers: no fresh module graph per file. Module state is`,
    `${indent}  // shared between these files; rubricate keeps each test's calls, misses and verdicts its own.`,
    `${indent}  {`,
    `${indent}    extends: true,`,
    `${indent}    test: { name: 'rubric', include: ['${FAST_FILES}'], isolate: false, pool: 'threads' },`,
    `${indent}  },`,
    `${indent}],`,
  ]
}

/**
 * The config step of `init` with the fast projects added to the text it writes (or to the file
 * as it is, when the plugin was there already), or refused with what to add by hand.
 * @internal
 */
export function withFastProjects(
  step: InitStep,
  current: string | undefined,
  ts: TypeScriptModule | undefined,
): InitStep {
  if (step.action === 'refused') return step
  const text = step.text ?? current
  if (text === undefined) {
    throw new Error(`init --fast found no text for ${step.file}. This is a bug in rubricate.`)
  }
  // A config init creates is its own text: no comment or string of the user's to step around.
  if (ts === undefined && step.action !== 'created') {
    return {
      file: step.file,
      action: 'refused',
      detail: `init --fast reads the config with the project's TypeScript, and the project has none (npm install -D typescript): add to its "test" block:\n${fastProjectsLines('  ').join('\n')}`,
    }
  }
  const edited = addFastProjects(text, ts, step.file)
  if (typeof edited !== 'string') {
    if (edited.action === 'unchanged') return step
    return { file: step.file, action: 'refused', detail: edited.detail }
  }
  const detail =
    step.action === 'unchanged'
      ? 'test.projects added: rubric and eval files share workers (--fast)'
      : `${step.detail}; test.projects: rubric and eval files share workers (--fast)`
  // A plugin call of the user's is theirs to change: init names the option it would have written,
  // unless the code sets it (a comment or a string naming it sets nothing).
  const chosen = ts !== undefined && /\bannotations\s*:/.test(codeOnly(ts, text))
  const note = step.action === 'unchanged' && !chosen ? FAST_ANNOTATIONS_NOTE : step.note
  return {
    ...step,
    note,
    action: step.action === 'created' ? 'created' : 'updated',
    detail,
    text: edited,
  }
}

/**
 * `text` with the two projects in its `test` block (one is made when there is none), or why not.
 * @internal
 */
export function addFastProjects(
  original: string,
  ts: TypeScriptModule | undefined,
  file = 'vitest.config.ts',
): string | { action: 'unchanged' | 'refused'; detail: string } {
  const byHand = `add to its "test" block:\n${fastProjectsLines('  ').join('\n')}`
  if (original.includes(FAST_FILES)) {
    return { action: 'unchanged', detail: 'the fast projects are already there' }
  }
  // Without TypeScript (only for a config init creates, see withFastProjects) its own text is
  // read as it is.
  if (ts === undefined) return insertFastProjects(original, original, byHand)
  const broken = syntaxError(ts, original, file)
  if (broken !== undefined) {
    return {
      action: 'refused',
      detail: `it does not parse (${broken}): fix it, then run init again`,
    }
  }
  // Patterns are looked for in the code alone, never in a comment or a string; offsets in `text`
  // are offsets in the file.
  const text = codeOnly(ts, original)
  const inserted = insertFastProjects(original, text, byHand)
  if (typeof inserted !== 'string') return inserted
  // The file's line endings kept: the inserted lines are written as the rest of it.
  const edited = original.includes('\r\n') ? inserted.replace(/\r?\n/g, '\r\n') : inserted
  const after = syntaxError(ts, edited, file)
  if (after !== undefined) {
    return {
      action: 'refused',
      detail: `init's edit of it did not parse (${after}); this is a bug in rubricate, please report it: ${byHand}`,
    }
  }
  return edited
}

function insertFastProjects(
  original: string,
  text: string,
  byHand: string,
): string | { action: 'refused'; detail: string } {
  if (/\bprojects\s*:/.test(text) || /\bworkspace\s*:/.test(text)) {
    return {
      action: 'refused',
      detail: `it has "test.projects" already, which init does not merge into: give rubric and eval files a project of their own with isolate: false, as in https://rubricate.github.io/rubricate/guide/fast-setup, or ${byHand}`,
    }
  }
  const heads = [
    ...text.matchAll(
      /(?:^|\n)(?:export\s+default|module\.exports\s*=)\s*(?:defineConfig\s*\(\s*)?\{/g,
    ),
  ]
  const tests = [...text.matchAll(/\btest\s*:\s*\{/g)]
  if (heads.length !== 1 || tests.length > 1) {
    return {
      action: 'refused',
      detail: `init edits only \`export default defineConfig({ ... })\` with at most one "test: {" block, and did not find it: ${byHand}`,
    }
  }
  if (/\binclude\s*:/.test(text)) {
    return {
      action: 'refused',
      detail: `it sets "include", and a project that extends the config adds to that list rather than replacing it: move "include" into the "unit" project below, then ${byHand}`,
    }
  }
  const test = tests[0]
  if (test !== undefined) {
    const at = (test.index ?? 0) + test[0].length
    return `${original.slice(0, at)}\n${fastProjectsLines().join('\n')}${original.slice(at)}`
  }
  const head = heads[0] as RegExpMatchArray
  const at = (head.index ?? 0) + head[0].length
  // Before the closing of the config object: after `plugins`, which init puts first.
  const close = text.lastIndexOf('}')
  if (close < at || !/^\s*\)?\s*;?\s*$/.test(text.slice(close + 1))) {
    return { action: 'refused', detail: `init could not find the end of the config: ${byHand}` }
  }
  const body = text.slice(0, close).replace(/\s*$/, '')
  const before = original.slice(0, body.length)
  const comma = body.endsWith('{') || body.endsWith(',') ? '' : ','
  return `${before}${comma}\n  test: {\n${fastProjectsLines().join('\n')}\n  },${original.slice(body.length, close).replace(/^[ \t]*(?=\r?\n)/, '') || '\n'}${original.slice(close)}`
}
