/**
 * What `rubricate init` changes in a project, worked out as text before anything is written: the
 * rubricate plugin in the Vitest config (or a new config), the matcher types, the `.gitignore`
 * line. Each step is `created`, `updated`, `unchanged` (already there) or `refused` (a file it
 * does not understand: left alone, with what to add by hand).
 */

import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { basename, extname, join } from 'node:path'
import { findVitestConfig } from './cassette-dir'
import { importLine, requireLine } from './code-lines'
import { addPlugin, loadProjectTypeScript, type TypeScriptModule } from './config-edit'
import { writeRefusal } from './safe-writes'

/** One file `init` looks at, and what it does with it. @internal */
export interface InitStep {
  /** The file, relative to the project folder. */
  file: string
  action: 'created' | 'updated' | 'unchanged' | 'refused'
  /** What the step did or, when refused, why and what to add by hand. */
  detail: string
  /** The new text of the file, for `created` and `updated`. */
  text?: string | undefined
  /** Something to do by hand that init does not do for the user. */
  note?: string | undefined
  /** The change said for a person to make, when init cannot write the file itself. */
  byHand?: string | undefined
}

/** The judge a new config names; `--judge` changes it. @internal */
export const DEFAULT_INIT_JUDGE = 'openai/gpt-4.1-mini'
/** The line `init` adds to `.gitignore`: the reports a run writes (`.rubricate/report.html`). @internal */
export const GITIGNORE_LINE = '.rubricate/'
const TYPES_FILE = 'rubricate.d.ts'
const TYPES_TEXT = '/// <reference types="rubricate/matchers" />\n'

/**
 * The steps of `rubricate init` in a project folder, nothing written yet. A step that would write
 * a file it cannot write safely (a link, outside the project, not writable) is refused, with what
 * to do by hand. `typescript` defaults to the project's own (`loadProjectTypeScript`).
 * @internal
 */
export function planInit(
  cwd: string,
  options: { judge: string; fast?: boolean; typescript?: TypeScriptModule | undefined },
): InitStep[] {
  const typescript = 'typescript' in options ? options.typescript : loadProjectTypeScript(cwd)
  const plugin = pluginCall(options.judge, options.fast === true)
  return [
    configStep(cwd, options.judge, plugin, typescript),
    typesStep(cwd),
    gitignoreStep(cwd),
  ].map((step) => guarded(cwd, step))
}

/**
 * The plugin call init writes. `--fast` also annotates only failed assertions: a passing one's
 * verdicts stay in the reports, without a round trip to Vitest's main process per test.
 */
function pluginCall(judge: string, fast: boolean): string {
  return `rubricate({ judge: '${judge}'${fast ? ", annotations: 'failures'" : ''} })`
}

/** The step refused when its file cannot be written safely. @internal */
export function guarded(cwd: string, step: InitStep): InitStep {
  if (step.text === undefined) return step
  const refusal = writeRefusal(cwd, step.file)
  if (refusal === undefined) return step
  const { text: _text, byHand: _byHand, ...rest } = step
  return {
    ...rest,
    action: 'refused',
    detail: `init cannot write it: ${refusal}. Make the change by hand: ${step.byHand ?? step.detail}`,
  }
}

/** True when Node loads the project's `.ts`/`.js` files as CommonJS (no `"type": "module"`). */
function isCommonJsProject(cwd: string): boolean {
  const file = join(cwd, 'package.json')
  if (!existsSync(file)) return true
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { type?: unknown }).type !== 'module'
  } catch {
    return true
  }
}

/** The Vitest config init writes when the project has none (`fast`: with `--fast`). @internal */
export function createdConfig(judge: string, fast = false): string {
  return createdConfigWith(pluginCall(judge, fast))
}

function createdConfigWith(plugin: string): string {
  return [
    importLine('rubricate', 'rubricate/plugin'),
    importLine('{ defineConfig }', 'vitest/config'),
    '',
    'export default defineConfig({',
    `  plugins: [${plugin}],`,
    '})',
    '',
  ].join('\n')
}

function configStep(
  cwd: string,
  judge: string,
  plugin: string,
  typescript: TypeScriptModule | undefined,
): InitStep {
  const found = findVitestConfig(cwd)
  if (found === undefined) {
    // In a CommonJS package Vite loads a vitest.config.ts as CommonJS and warns on every run
    // that it holds ESM syntax; .mts is ESM wherever it lies.
    const file = isCommonJsProject(cwd) ? 'vitest.config.mts' : 'vitest.config.ts'
    return {
      file,
      action: 'created',
      detail: `a Vitest config with the rubricate plugin (judge "${judge}")`,
      byHand: `write ${file} with \`${plugin}\` in its "plugins", imported with \`${importLine('rubricate', 'rubricate/plugin')}\``,
      text: createdConfigWith(plugin),
    }
  }
  const file = basename(found)
  const text = readFileSync(found, 'utf8')
  // The config init itself wrote, as it wrote it: run twice without TypeScript, nothing to read.
  if (typescript === undefined && text === createdConfigWith(plugin)) {
    return { file, action: 'unchanged', detail: 'the rubricate plugin is already there' }
  }
  const edited =
    typescript === undefined
      ? {
          action: 'refused' as const,
          detail: `init reads the config with TypeScript's parser (so that it never edits a comment or a string), and this project has no "typescript" package: install it (npm install -D typescript) and run init again, or add \`${plugin}\` to its "plugins", imported with \`${importLine('rubricate', 'rubricate/plugin')}\` (CommonJS: \`${requireLine('{ rubricate }', 'rubricate/plugin')}\`)`,
        }
      : addPlugin(typescript, text, file, plugin)
  // Renaming the user's config is theirs to do: init says why and how.
  const note =
    ['.ts', '.js'].includes(extname(found)) &&
    isCommonJsProject(cwd) &&
    /^\s*(?:import\s|export\s)/m.test(text)
      ? `Vite loads ${file} as CommonJS in this package (no "type": "module") and warns on every run that it holds ESM syntax: rename it to ${file.replace(/\.(ts|js)$/, '.m$1')} to silence that.`
      : undefined
  if (typeof edited === 'object') return { file, ...edited, note }
  return {
    file,
    action: 'updated',
    detail: `the rubricate plugin added to "plugins" (judge "${judge}")`,
    byHand: `add \`${plugin}\` to its "plugins", imported with \`${importLine('rubricate', 'rubricate/plugin')}\``,
    text: edited,
    note,
  }
}

function typesStep(cwd: string): InitStep {
  // Already typed: a tsconfig's "types" or any .d.ts at the root references the matchers.
  const candidates = ['tsconfig.json', ...readdirSync(cwd).filter((f) => f.endsWith('.d.ts'))]
  const typed = candidates.find((name) => {
    const file = join(cwd, name)
    return existsSync(file) && readFileSync(file, 'utf8').includes('rubricate/matchers')
  })
  if (typed !== undefined) {
    return { file: typed, action: 'unchanged', detail: 'the matcher types are already referenced' }
  }
  if (existsSync(join(cwd, TYPES_FILE))) {
    return {
      file: TYPES_FILE,
      action: 'refused',
      detail: `it exists and does not reference the matcher types: add the line ${TYPES_TEXT.trim()}`,
    }
  }
  return {
    file: TYPES_FILE,
    action: 'created',
    detail: 'the types of the matchers (toSatisfyRubric, toPassScorer, ...)',
    byHand: `reference the matcher types from a .d.ts file of the project, with the line ${TYPES_TEXT.trim()}`,
    text: TYPES_TEXT,
  }
}

function gitignoreStep(cwd: string): InitStep {
  const file = join(cwd, '.gitignore')
  const text = existsSync(file) ? readFileSync(file, 'utf8') : undefined
  const ignored = (text ?? '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .some((line) => ['.rubricate', '.rubricate/', '/.rubricate', '/.rubricate/'].includes(line))
  if (ignored) {
    return {
      file: '.gitignore',
      action: 'unchanged',
      detail: `${GITIGNORE_LINE} is already ignored`,
    }
  }
  const detail = `${GITIGNORE_LINE} (the report pages a run writes; __cassettes__/ is committed)`
  const byHand = `add the line ${GITIGNORE_LINE} to .gitignore`
  if (text === undefined) {
    return { file: '.gitignore', action: 'created', detail, byHand, text: `${GITIGNORE_LINE}\n` }
  }
  // The file's own line endings: a CRLF file stays CRLF.
  const eol = text.includes('\r\n') ? '\r\n' : '\n'
  const separator = text === '' || text.endsWith('\n') ? '' : eol
  return {
    file: '.gitignore',
    action: 'updated',
    detail,
    byHand,
    text: `${text}${separator}${GITIGNORE_LINE}${eol}`,
  }
}
