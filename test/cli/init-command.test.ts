import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import ts from 'typescript'
import { beforeEach, expect, test } from 'vitest'
import { addPlugin as addPluginWith } from '../../src/cli/config-edit'
import { rubricateCommand } from '../../src/cli/rubricate-command'
import { tempDir } from '../support/temp-dir'

let cwd = ''
let out: string[] = []
let err: string[] = []
const run = (...argv: string[]) =>
  rubricateCommand(argv, { cwd, out: (t) => out.push(t), err: (t) => err.push(t) })
const read = (file: string) => readFileSync(join(cwd, file), 'utf8')
const write = (file: string, text: string) => writeFileSync(join(cwd, file), text)
const plugin = "rubricate({ judge: 'openai/gpt-4.1-mini' })"
const extensions: Record<string, string> = {
  '.ts': 'vitest.config.ts',
  '.cjs': 'vitest.config.cjs',
  '.mjs': 'vitest.config.mjs',
}
const addPlugin = (text: string, ext: string, what: string) =>
  addPluginWith(ts, text, extensions[ext] ?? `vitest.config${ext}`, what)

// The project's own TypeScript, as a user's project installs it: init reads configs with it.
const installTypeScript = (dir: string) => {
  mkdirSync(join(dir, 'node_modules'), { recursive: true })
  symlinkSync(resolve('node_modules/typescript'), join(dir, 'node_modules', 'typescript'), 'dir')
}

beforeEach(() => {
  cwd = tempDir('rubricate-init-')
  installTypeScript(cwd)
  out = []
  err = []
})

test('in an empty ESM project it writes vitest.config.ts, the types and .gitignore, and prints the next step', async () => {
  write('package.json', JSON.stringify({ name: 'bot', type: 'module' }))
  expect(await run('init')).toBe(0)
  expect(read('vitest.config.ts')).toBe(
    [
      "import rubricate from 'rubricate/plugin'",
      "import { defineConfig } from 'vitest/config'",
      '',
      'export default defineConfig({',
      `  plugins: [${plugin}],`,
      '})',
      '',
    ].join('\n'),
  )
  expect(read('rubricate.d.ts')).toBe('/// <reference types="rubricate/matchers" />\n')
  expect(read('.gitignore')).toBe('.rubricate/\n')
  expect(out[0]).toBe(
    [
      'rubricate init',
      '  created            vitest.config.ts  a Vitest config with the rubricate plugin (judge "openai/gpt-4.1-mini")',
      '  created            rubricate.d.ts    the types of the matchers (toSatisfyRubric, toPassScorer, ...)',
      '  created            .gitignore        .rubricate/ (the report pages a run writes; __cassettes__/ is committed)',
    ].join('\n'),
  )
  expect(out[1]).toContain('OPENAI_API_KEY=sk-... npx vitest run')
  expect(out[1]).toContain('OPENAI_BASE_URL')
  expect(err).toEqual([])
})

test('in a CommonJS project it writes vitest.config.mts, which Vite loads as ESM without a warning', async () => {
  write('package.json', JSON.stringify({ name: 'bot', type: 'commonjs' }))
  expect(await run('init')).toBe(0)
  expect(existsSync(join(cwd, 'vitest.config.ts'))).toBe(false)
  expect(read('vitest.config.mts')).toContain(`plugins: [${plugin}]`)
})

test('a second run changes nothing and says so', async () => {
  write('package.json', JSON.stringify({ name: 'bot', type: 'module' }))
  write('.gitignore', 'node_modules')
  expect(await run('init', '--judge', 'openai/gpt-4.1')).toBe(0)
  const files = ['vitest.config.ts', 'rubricate.d.ts', '.gitignore'].map(read)
  expect(files[2]).toBe('node_modules\n.rubricate/\n')
  expect(await run('init', '--json')).toBe(0)
  expect(['vitest.config.ts', 'rubricate.d.ts', '.gitignore'].map(read)).toEqual(files)
  expect(JSON.parse(out.at(-1) as string)).toEqual({
    written: true,
    steps: [
      {
        file: 'vitest.config.ts',
        action: 'unchanged',
        detail: 'the rubricate plugin is already there',
      },
      {
        file: 'rubricate.d.ts',
        action: 'unchanged',
        detail: 'the matcher types are already referenced',
      },
      { file: '.gitignore', action: 'unchanged', detail: '.rubricate/ is already ignored' },
    ],
  })
})

test('an existing config gets the import after its imports and the plugin first in its plugins', async () => {
  write('package.json', JSON.stringify({ type: 'module' }))
  write(
    'vitest.config.ts',
    `/// <reference types="vitest" />
import react from '@vitejs/plugin-react'
import {
  defineConfig,
} from 'vitest/config'

export default defineConfig({
  plugins: [react()],
  test: { environment: 'node' },
})
`,
  )
  expect(await run('init')).toBe(0)
  expect(read('vitest.config.ts')).toBe(`/// <reference types="vitest" />
import react from '@vitejs/plugin-react'
import {
  defineConfig,
} from 'vitest/config'
import rubricate from 'rubricate/plugin'

export default defineConfig({
  plugins: [${plugin}, react()],
  test: { environment: 'node' },
})
`)
  expect(out[0]).toContain(
    '  updated            vitest.config.ts  the rubricate plugin added to "plugins" (judge "openai/gpt-4.1-mini")',
  )
})

test('a config without plugins gets them; a CommonJS config gets a require', () => {
  expect(
    addPlugin(
      "import { defineConfig } from 'vitest/config'\nexport default defineConfig({ test: {} })\n",
      '.ts',
      'rubricate()',
    ),
  ).toBe(
    "import { defineConfig } from 'vitest/config'\nimport rubricate from 'rubricate/plugin'\nexport default defineConfig({\n  plugins: [rubricate()], test: {} })\n",
  )
  expect(
    addPlugin(
      "const { defineConfig } = require('vitest/config')\nmodule.exports = defineConfig({\n  plugins: [],\n})\n",
      '.cjs',
      'rubricate()',
    ),
  ).toBe(
    "const { defineConfig } = require('vitest/config')\nconst { rubricate } = require('rubricate/plugin')\nmodule.exports = defineConfig({\n  plugins: [rubricate()],\n})\n",
  )
  expect(addPlugin('export default {}\n', '.mjs', 'rubricate()')).toBe(
    "import rubricate from 'rubricate/plugin'\nexport default {\n  plugins: [rubricate()],}\n",
  )
})

test('a config it does not understand is refused: nothing is written, it says what to add, exit 1', async () => {
  write('package.json', JSON.stringify({ type: 'module' }))
  const config = `import { defineConfig, mergeConfig } from 'vitest/config'
import base from './vite.config'
export default mergeConfig(base, defineConfig({ test: {} }))
`
  write('vitest.config.ts', config)
  expect(await run('init')).toBe(1)
  expect(read('vitest.config.ts')).toBe(config)
  expect(existsSync(join(cwd, 'rubricate.d.ts'))).toBe(false)
  expect(existsSync(join(cwd, '.gitignore'))).toBe(false)
  expect(out[0]).toContain(
    "  refused            vitest.config.ts  init edits only `export default defineConfig({ ... })` or `module.exports = defineConfig({ ... })`, and did not find it: add `rubricate({ judge: 'openai/gpt-4.1-mini' })` to its \"plugins\", imported with `import rubricate from 'rubricate/plugin'`",
  )
  expect(out[0]).toContain('  would be created   rubricate.d.ts')
  expect(err).toEqual([
    '[rubricate] init wrote nothing: a file above is not in a shape it can edit safely ("refused"). Make the change it names by hand, then run "npx rubricate init" again to do the rest.',
  ])
})

test('plugins from a variable, a function config and a foreign rubricate.d.ts are refused', () => {
  expect(
    addPlugin('const plugins = []\nexport default defineConfig({ plugins })\n', '.ts', 'r()'),
  ).toMatchObject({ action: 'refused' })
  expect(
    addPlugin('export default defineConfig(() => ({ test: {} }))\n', '.ts', 'r()'),
  ).toMatchObject({ action: 'refused' })
  expect(
    addPlugin("import rubricate from 'rubricate/plugin'\nexport default {}\n", '.ts', 'r()'),
  ).toMatchObject({ action: 'refused' })
})

test('--dry-run writes nothing; a CommonJS project with an ESM vitest.config.ts gets a note about the Vite warning', async () => {
  write('package.json', JSON.stringify({ name: 'bot' }))
  write(
    'vitest.config.ts',
    "import { defineConfig } from 'vitest/config'\nexport default defineConfig({})\n",
  )
  write('rubricate.d.ts', '// mine\n')
  expect(await run('init', '--dry-run')).toBe(1)
  expect(read('vitest.config.ts')).not.toContain('rubricate')
  expect(out[0]).toContain(
    'refused            rubricate.d.ts    it exists and does not reference the matcher types: add the line /// <reference types="rubricate/matchers" />',
  )
  expect(out[0]).toContain(
    'Note: Vite loads vitest.config.ts as CommonJS in this package (no "type": "module") and warns on every run that it holds ESM syntax: rename it to vitest.config.mts to silence that.',
  )
  write('rubricate.d.ts', '// mine\n/// <reference types="rubricate/matchers" />\n')
  expect(await run('init', '--dry-run')).toBe(0)
  expect(read('vitest.config.ts')).not.toContain('rubricate')
  expect(existsSync(join(cwd, '.gitignore'))).toBe(false)
})

test('a --judge that is not a model name is a usage error', async () => {
  expect(await run('init', '--judge', "x' })")).toBe(2)
  expect(err[0]).toContain('"rubricate init --judge" takes a model such as "openai/gpt-4.1-mini"')
})
