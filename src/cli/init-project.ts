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
}

/** The judge a new config names; `--judge` changes it. @internal */
export const DEFAULT_INIT_JUDGE = 'openai/gpt-4.1-mini'
/** The line `init` adds to `.gitignore`: the reports a run writes (`.rubricate/report.html`). @internal */
export const GITIGNORE_LINE = '.rubricate/'
const TYPES_FILE = 'rubricate.d.ts'
const TYPES_TEXT = '/// <reference types="rubricate/matchers" />\n'

/** The steps of `rubricate init` in a project folder, nothing written yet. @internal */
export function planInit(cwd: string, options: { judge: string }): InitStep[] {
  return [configStep(cwd, options.judge), typesStep(cwd), gitignoreStep(cwd)]
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

function configStep(cwd: string, judge: string): InitStep {
  const plugin = `rubricate({ judge: '${judge}' })`
  const found = findVitestConfig(cwd)
  if (found === undefined) {
    // In a CommonJS package Vite loads a vitest.config.ts as CommonJS and warns on every run
    // that it holds ESM syntax; .mts is ESM wherever it lies.
    const file = isCommonJsProject(cwd) ? 'vitest.config.mts' : 'vitest.config.ts'
    return {
      file,
      action: 'created',
      detail: `a Vitest config with the rubricate plugin (judge "${judge}")`,
      text: [
        importLine('rubricate', 'rubricate/plugin'),
        importLine('{ defineConfig }', 'vitest/config'),
        '',
        'export default defineConfig({',
        `  plugins: [${plugin}],`,
        '})',
        '',
      ].join('\n'),
    }
  }
  const file = basename(found)
  const text = readFileSync(found, 'utf8')
  const edited = addPlugin(text, extname(found), plugin)
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
    text: edited,
    note,
  }
}

/**
 * The config's text with the rubricate plugin imported and added to its `plugins`, or why it was
 * left as it is. Only the two shapes a generated or hand-written config has are edited:
 * `export default defineConfig({ ... })` (or `export default { ... }`) and
 * `module.exports = defineConfig({ ... })`, with one `plugins: [` array or none. Anything else (a
 * function config, `mergeConfig`, plugins from a variable) is refused: a wrong edit of a config
 * costs more than adding one line by hand.
 * @internal
 */
export function addPlugin(
  text: string,
  ext: string,
  plugin: string,
): string | { action: 'unchanged' | 'refused'; detail: string } {
  const byHand = `add \`${plugin}\` to its "plugins", imported with \`${importLine('rubricate', 'rubricate/plugin')}\` (CommonJS: \`${requireLine('{ rubricate }', 'rubricate/plugin')}\`)`
  if (/['"]rubricate\/plugin['"]/.test(text)) {
    return /\brubricate\s*\(/.test(text)
      ? { action: 'unchanged', detail: 'the rubricate plugin is already there' }
      : {
          action: 'refused',
          detail: `it imports "rubricate/plugin" but init cannot see the plugin called: ${byHand}`,
        }
  }
  const commonJs = ext === '.cjs' || ext === '.cts' || /\bmodule\.exports\s*=/.test(text)
  const heads = [
    ...text.matchAll(
      /(?:^|\n)(?:export\s+default|module\.exports\s*=)\s*(?:defineConfig\s*\(\s*)?\{/g,
    ),
  ]
  if (heads.length !== 1) {
    return {
      action: 'refused',
      detail: `init edits only \`export default defineConfig({ ... })\` or \`module.exports = defineConfig({ ... })\`, and did not find it: ${byHand}`,
    }
  }
  const head = heads[0] as RegExpMatchArray
  const objectStart = (head.index ?? 0) + head[0].length
  const arrays = [...text.matchAll(/\bplugins\s*:\s*\[/g)]
  const mentions = [...text.matchAll(/\bplugins\b/g)].length
  let withPlugin: string
  if (arrays.length === 1 && mentions === 1) {
    const at = (arrays[0]?.index ?? 0) + (arrays[0]?.[0].length ?? 0)
    const empty = /^\s*\]/.test(text.slice(at))
    withPlugin = `${text.slice(0, at)}${plugin}${empty ? '' : ', '}${text.slice(at)}`
  } else if (mentions === 0) {
    withPlugin = `${text.slice(0, objectStart)}\n  plugins: [${plugin}],${text.slice(objectStart)}`
  } else {
    return {
      action: 'refused',
      detail: `its "plugins" is not one array written in the config: ${byHand}`,
    }
  }
  return addImport(withPlugin, commonJs)
}

/** The text with the plugin's import after the last import (or require) at the top. */
function addImport(text: string, commonJs: boolean): string {
  const line = commonJs
    ? requireLine('{ rubricate }', 'rubricate/plugin')
    : importLine('rubricate', 'rubricate/plugin')
  const statements = commonJs
    ? /^(?:const|let|var)\s[^\n]*=\s*require\(\s*['"][^'"]+['"]\s*\)[^\n]*$/gm
    : /^import\s[^;]*?from\s*(['"])[^'"]+\1;?[ \t]*$/gm
  const last = [...text.matchAll(statements)].at(-1)
  if (last !== undefined) {
    const end = (last.index ?? 0) + last[0].length
    return `${text.slice(0, end)}\n${line}${text.slice(end)}`
  }
  // Triple-slash directives must stay first: a directive after a statement is a plain comment.
  const directives = /^(?:\s*\/\/\/[^\n]*\n)*/.exec(text)?.[0] ?? ''
  return `${directives}${line}\n${text.slice(directives.length)}`
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
  if (text === undefined) {
    return { file: '.gitignore', action: 'created', detail, text: `${GITIGNORE_LINE}\n` }
  }
  const separator = text === '' || text.endsWith('\n') ? '' : '\n'
  return {
    file: '.gitignore',
    action: 'updated',
    detail,
    text: `${text}${separator}${GITIGNORE_LINE}\n`,
  }
}
