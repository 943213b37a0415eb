/**
 * The rubricate plugin added to a Vitest config, read with TypeScript's own parser
 * (`ts.createSourceFile`, loaded from the user's project), so that a comment or a string that looks
 * like code is never edited and a config that does not parse is refused, not "updated". Pure: text
 * in, text (or why not) out.
 */

import { createRequire } from 'node:module'
import { join } from 'node:path'
import type * as TS from 'typescript'
import { importLine, requireLine } from './code-lines'

/** TypeScript's module, as the user's project installs it. @internal */
export type TypeScriptModule = typeof TS

/** What `addPlugin` answers when it does not edit: already there, or why it cannot. @internal */
export interface ConfigVerdict {
  action: 'unchanged' | 'refused'
  detail: string
}

/**
 * TypeScript as the project in `cwd` resolves it, `undefined` when it has none. The user's own copy,
 * not one bundled with rubricate: a Vitest project with a `.ts` config has it, and rubricate keeps
 * no parser of its own that could disagree with the one that compiles the config.
 * @internal
 */
export function loadProjectTypeScript(cwd: string): TypeScriptModule | undefined {
  try {
    const loaded = createRequire(join(cwd, 'package.json'))('typescript') as TypeScriptModule
    return typeof loaded.createSourceFile === 'function' ? loaded : undefined
  } catch {
    return undefined
  }
}

/** The first syntax error of a file, as `line N: message`, `undefined` when it parses. @internal */
export function syntaxError(ts: TypeScriptModule, text: string, file: string): string | undefined {
  const { diagnostics = [] } = ts.transpileModule(text, { fileName: file, reportDiagnostics: true })
  const first = diagnostics.find((d) => d.category === ts.DiagnosticCategory.Error)
  if (first === undefined) return undefined
  const where =
    first.file && first.start !== undefined
      ? `line ${first.file.getLineAndCharacterOfPosition(first.start).line + 1}: `
      : ''
  return `${where}${ts.flattenDiagnosticMessageText(first.messageText, ' ')}`
}

/**
 * `text` with every comment and string literal blanked out (each character but line breaks made a
 * space), so that a pattern looked for in code never matches inside one and an offset in it is an
 * offset in `text`. @internal
 */
export function codeOnly(ts: TypeScriptModule, text: string): string {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text)
  const blanked = new Set<TS.SyntaxKind>([
    ts.SyntaxKind.SingleLineCommentTrivia,
    ts.SyntaxKind.MultiLineCommentTrivia,
    ts.SyntaxKind.StringLiteral,
    ts.SyntaxKind.NoSubstitutionTemplateLiteral,
    ts.SyntaxKind.TemplateHead,
  ])
  let out = ''
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    const token = scanner.getTokenText()
    out += blanked.has(kind) ? token.replace(/[^\r\n]/g, ' ') : token
  }
  return out
}

/**
 * The config's text with the rubricate plugin imported and first in its `plugins`, or why it was
 * left as it is. Edited: `export default defineConfig({ ... })` (or `export default { ... }`) and
 * `module.exports = defineConfig({ ... })`, with one `plugins: [ ... ]` array or none. Refused: a
 * config that does not parse, a function config, `mergeConfig`, plugins from a variable, and
 * `test.projects` (root plugins do not reach a project that does not extend the root). The new
 * text keeps the file's line endings and is parsed again before it is returned.
 * @internal
 */
export function addPlugin(
  ts: TypeScriptModule,
  text: string,
  file: string,
  plugin: string,
): string | ConfigVerdict {
  const commonJsFile = /\.c[jt]s$/.test(file)
  const byHand = `add \`${plugin}\` to its "plugins", imported with \`${importLine('rubricate', 'rubricate/plugin')}\` (CommonJS: \`${requireLine('{ rubricate }', 'rubricate/plugin')}\`)`
  const broken = syntaxError(ts, text, file)
  if (broken !== undefined) {
    return {
      action: 'refused',
      detail: `it does not parse (${broken}): fix it so that Vitest can load it, then run init again`,
    }
  }
  // Added by hand where init cannot edit (mergeConfig, a project's plugins): already there, so a
  // run after the hand edit goes on to the other files.
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKind(ts, file))
  if (importsRubricatePlugin(ts, source) && callsRubricateAnywhere(ts, source)) {
    return { action: 'unchanged', detail: 'the rubricate plugin is already there' }
  }
  const config = readConfig(ts, text, file)
  if (typeof config === 'string') return { action: 'refused', detail: `${config}: ${byHand}` }
  if (config.projects) {
    return {
      action: 'refused',
      detail: `it runs its tests as "test.projects", and a plugin of the root config does not reach a project that does not extend it: add \`${plugin}\` to the "plugins" of each project that runs rubric tests (or give those projects \`extends: true\` and add it to the root's "plugins"), imported with \`${importLine('rubricate', 'rubricate/plugin')}\``,
    }
  }
  if (config.importsPlugin || config.callsPlugin) {
    return config.importsPlugin && config.callsPlugin
      ? { action: 'unchanged', detail: 'the rubricate plugin is already there' }
      : {
          action: 'refused',
          detail: `it ${config.importsPlugin ? 'imports "rubricate/plugin" but init cannot see the plugin called in "plugins"' : 'calls rubricate() in "plugins" but does not import "rubricate/plugin"'}: ${byHand}`,
        }
  }
  const eol = text.includes('\r\n') ? '\r\n' : '\n'
  const pluginEdit: Edit = config.plugins
    ? {
        at: config.plugins.elements.pos,
        insert: `${plugin}${config.plugins.elements.length > 0 ? ', ' : ''}`,
      }
    : { at: config.object.getStart() + 1, insert: `${eol}  plugins: [${plugin}],` }
  const commonJs = commonJsFile || config.commonJs
  const edited = applyEdits(text, [pluginEdit, importEdit(ts, config.source, commonJs, eol)])
  // The edit is checked as the user's next run will read it: it parses and has the plugin.
  const after = syntaxError(ts, edited, file) ?? readConfig(ts, edited, file)
  if (typeof after === 'string' || !after.importsPlugin || !after.callsPlugin) {
    return {
      action: 'refused',
      detail: `init's edit of it did not read back as a config with the plugin (${typeof after === 'string' ? after : 'plugin not found'}); this is a bug in rubricate, please report it: ${byHand}`,
    }
  }
  return edited
}

interface Edit {
  at: number
  insert: string
}

function applyEdits(text: string, edits: Edit[]): string {
  let out = text
  for (const { at, insert } of [...edits].sort((a, b) => b.at - a.at)) {
    out = `${out.slice(0, at)}${insert}${out.slice(at)}`
  }
  return out
}

interface ConfigShape {
  source: TS.SourceFile
  object: TS.ObjectLiteralExpression
  plugins: TS.ArrayLiteralExpression | undefined
  projects: boolean
  commonJs: boolean
  importsPlugin: boolean
  callsPlugin: boolean
}

/** The parts of a config `addPlugin` edits, or why it cannot edit them. */
function readConfig(ts: TypeScriptModule, text: string, file: string): ConfigShape | string {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKind(ts, file))
  const exported: TS.Expression[] = []
  let commonJs = false
  for (const statement of source.statements) {
    if (ts.isExportAssignment(statement) && !statement.isExportEquals) {
      exported.push(statement.expression)
    } else if (isModuleExports(ts, statement)) {
      exported.push(statement.expression.right)
      commonJs = true
    }
  }
  const shapes =
    'init edits only `export default defineConfig({ ... })` or `module.exports = defineConfig({ ... })`, and did not find it'
  if (exported.length !== 1) return shapes
  let value = skipWrappers(ts, exported[0] as TS.Expression)
  if (
    ts.isCallExpression(value) &&
    ts.isIdentifier(value.expression) &&
    value.expression.text === 'defineConfig' &&
    value.arguments.length === 1
  ) {
    value = skipWrappers(ts, value.arguments[0] as TS.Expression)
  }
  if (!ts.isObjectLiteralExpression(value)) return shapes
  const object = value
  const named = (from: TS.ObjectLiteralExpression, name: string) =>
    from.properties.filter((p) => p.name !== undefined && propertyName(ts, p.name) === name)
  const pluginProps = named(object, 'plugins')
  let plugins: TS.ArrayLiteralExpression | undefined
  if (pluginProps.length > 0) {
    const [only] = pluginProps
    if (
      pluginProps.length > 1 ||
      only === undefined ||
      !ts.isPropertyAssignment(only) ||
      !ts.isArrayLiteralExpression(only.initializer)
    ) {
      return 'its "plugins" is not one array written in the config'
    }
    plugins = only.initializer
  }
  // Projects hidden in a variable cannot be seen: a `test` that is not written out is refused.
  const testProp = named(object, 'test')[0]
  let projects = false
  if (testProp !== undefined) {
    if (!ts.isPropertyAssignment(testProp) || !ts.isObjectLiteralExpression(testProp.initializer))
      return 'its "test" is not an object written in the config, so init cannot see whether it runs "projects"'
    const test = testProp.initializer
    if (test.properties.some((p) => ts.isSpreadAssignment(p)))
      return 'its "test" spreads another object, so init cannot see whether it runs "projects"'
    projects = named(test, 'projects').length > 0 || named(test, 'workspace').length > 0
  }
  return {
    source,
    object,
    plugins,
    projects,
    commonJs,
    importsPlugin: importsRubricatePlugin(ts, source),
    callsPlugin: (plugins?.elements ?? []).some((element) => callsRubricate(ts, element)),
  }
}

function scriptKind(ts: TypeScriptModule, file: string): TS.ScriptKind {
  return /\.[cm]?ts$/.test(file) ? ts.ScriptKind.TS : ts.ScriptKind.JS
}

function skipWrappers(ts: TypeScriptModule, node: TS.Expression): TS.Expression {
  let at = node
  while (ts.isParenthesizedExpression(at) || ts.isSatisfiesExpression(at) || ts.isAsExpression(at))
    at = at.expression
  return at
}

function propertyName(ts: TypeScriptModule, name: TS.PropertyName): string | undefined {
  return ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : undefined
}

function isModuleExports(
  ts: TypeScriptModule,
  statement: TS.Statement,
): statement is TS.ExpressionStatement & { expression: TS.BinaryExpression } {
  if (!ts.isExpressionStatement(statement)) return false
  const { expression } = statement
  return (
    ts.isBinaryExpression(expression) &&
    expression.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
    ts.isPropertyAccessExpression(expression.left) &&
    ts.isIdentifier(expression.left.expression) &&
    expression.left.expression.text === 'module' &&
    expression.left.name.text === 'exports'
  )
}

function isRequireOf(ts: TypeScriptModule, node: TS.Node, module?: string): boolean {
  return (
    ts.isCallExpression(node) &&
    ts.isIdentifier(node.expression) &&
    node.expression.text === 'require' &&
    node.arguments.length === 1 &&
    ts.isStringLiteral(node.arguments[0] as TS.Expression) &&
    (module === undefined || (node.arguments[0] as TS.StringLiteral).text === module)
  )
}

function importsRubricatePlugin(ts: TypeScriptModule, source: TS.SourceFile): boolean {
  let found = false
  const visit = (node: TS.Node): void => {
    if (found) return
    if (
      (ts.isImportDeclaration(node) &&
        ts.isStringLiteral(node.moduleSpecifier) &&
        node.moduleSpecifier.text === 'rubricate/plugin') ||
      isRequireOf(ts, node, 'rubricate/plugin')
    ) {
      found = true
      return
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

function callsRubricateAnywhere(ts: TypeScriptModule, source: TS.SourceFile): boolean {
  let found = false
  const visit = (node: TS.Node): void => {
    if (found) return
    if (ts.isCallExpression(node) && callsRubricate(ts, node)) found = true
    else ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

function callsRubricate(ts: TypeScriptModule, node: TS.Expression): boolean {
  const at = skipWrappers(ts, node)
  return (
    ts.isCallExpression(at) && ts.isIdentifier(at.expression) && at.expression.text === 'rubricate'
  )
}

/** The plugin's import, after the last top-level import (or require), else first after directives. */
function importEdit(
  ts: TypeScriptModule,
  source: TS.SourceFile,
  commonJs: boolean,
  eol: string,
): Edit {
  const line = commonJs
    ? requireLine('{ rubricate }', 'rubricate/plugin')
    : importLine('rubricate', 'rubricate/plugin')
  const last = source.statements
    .filter((statement) =>
      commonJs
        ? ts.isVariableStatement(statement) &&
          statement.declarationList.declarations.some(
            (d) => d.initializer !== undefined && isRequireOf(ts, d.initializer),
          )
        : ts.isImportDeclaration(statement),
    )
    .at(-1)
  if (last !== undefined) return { at: last.end, insert: `${eol}${line}` }
  // Triple-slash directives (and a shebang) must stay first: after a statement they are comments.
  const directives = /^(?:#![^\n]*\n)?(?:\s*\/\/\/[^\n]*\n)*/.exec(source.text)?.[0] ?? ''
  return { at: directives.length, insert: `${line}${eol}` }
}
