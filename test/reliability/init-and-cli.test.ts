// Groups 23 and 24 (issue 36, items 3 and 4): `rubricate init` never writes outside the project,
// never edits what it cannot parse, and changes every file or none; the CLI refuses a folder it
// cannot work on instead of saying ✓ over zero work.
import { execFileSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { join, resolve } from 'node:path'
import { beforeEach, describe, expect, onTestFinished, test } from 'vitest'
import { configureRubricate, resetRubricateConfig } from '../../src'
import { rubricateCommand } from '../../src/cli/rubricate-command'
import { writeAllOrNothing } from '../../src/cli/safe-writes'
import { runtimeState } from '../../src/runtime/state'
import { fakeReply } from '../../src/testing'
import { linked } from '../support/error-page'
import { tempDir } from '../support/temp-dir'
import { failureOf, judgeRubric, judgeServer, SPLIT_VERDICT } from './support'

let cwd = ''
let out: string[] = []
let err: string[] = []
const run = (...argv: string[]) =>
  rubricateCommand(argv, { cwd, out: (t) => out.push(t), err: (t) => err.push(t) })
const read = (file: string) => readFileSync(join(cwd, file), 'utf8')
const write = (file: string, text: string) => writeFileSync(join(cwd, file), text)
const plugin = "rubricate({ judge: 'openai/gpt-4.1-mini' })"
const esmConfig = "import { defineConfig } from 'vitest/config'\nexport default defineConfig({})\n"

/** A project folder with its own TypeScript installed, as a Vitest project has. */
function project(): string {
  const dir = tempDir('rubricate-init-')
  mkdirSync(join(dir, 'node_modules'))
  symlinkSync(resolve('node_modules/typescript'), join(dir, 'node_modules', 'typescript'), 'dir')
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'bot', type: 'module' }))
  return dir
}

/**
 * Make a file read-only for this process until the test ends. Root ignores permission bits, so
 * as root the file is made immutable (`chattr +i`); anyone else gets the write bits removed.
 */
function makeReadOnly(file: string): void {
  const root = process.getuid?.() === 0
  if (root) execFileSync('chattr', ['+i', file])
  else execFileSync('chmod', ['a-w', file])
  onTestFinished(() => {
    if (root) execFileSync('chattr', ['-i', file])
    else execFileSync('chmod', ['u+w', file])
  })
}

beforeEach(() => {
  cwd = project()
  out = []
  err = []
})

describe('23. init is safe and all-or-nothing', () => {
  test('a vitest.config.ts that links to a file outside the project is left alone, and so is that file', async () => {
    const outside = join(tempDir('rubricate-outside-'), 'vitest.config.ts')
    writeFileSync(outside, esmConfig)
    symlinkSync(outside, join(cwd, 'vitest.config.ts'))
    expect(await run('init')).toBe(1)
    expect(readFileSync(outside, 'utf8')).toBe(esmConfig)
    expect(out[0]).toContain(
      `  refused            vitest.config.ts  init cannot write it: "vitest.config.ts" is a symbolic link to "${outside}", and init does not write through a link: it could change a file outside the project. Make the change by hand: add \`${plugin}\` to its "plugins", imported with \`import rubricate from 'rubricate/plugin'\``,
    )
    expect(existsSync(join(cwd, 'rubricate.d.ts'))).toBe(false)
  })

  test('dangling links named rubricate.d.ts and .gitignore create nothing where they point', async () => {
    const elsewhere = tempDir('rubricate-outside-')
    symlinkSync(join(elsewhere, 'types.d.ts'), join(cwd, 'rubricate.d.ts'))
    symlinkSync(join(elsewhere, 'ignore'), join(cwd, '.gitignore'))
    expect(await run('init')).toBe(1)
    expect(existsSync(join(elsewhere, 'types.d.ts'))).toBe(false)
    expect(existsSync(join(elsewhere, 'ignore'))).toBe(false)
    expect(existsSync(join(cwd, 'vitest.config.ts'))).toBe(false)
    expect(out[0]).toContain(
      `  refused            .gitignore        init cannot write it: ".gitignore" is a symbolic link to "${join(elsewhere, 'ignore')}", which does not exist, and init does not write through a link`,
    )
    expect(out[0]).toContain(
      'rubricate.d.ts    init cannot write it: "rubricate.d.ts" is a symbolic link',
    )
  })

  test('a config with a syntax error is refused, not "updated", and stays as it was', async () => {
    const broken =
      "import { defineConfig } from 'vitest/config'\nexport default defineConfig({\n  test: { globals: true,\n})\n"
    write('vitest.config.ts', broken)
    expect(await run('init')).toBe(1)
    expect(read('vitest.config.ts')).toBe(broken)
    expect(out[0]).toMatch(
      /refused {12}vitest\.config\.ts {2}it does not parse \(line \d+: .+\): fix it so that Vitest can load it, then run init again/,
    )
  })

  test('a config that runs test.projects is refused with how to add the plugin to the projects', async () => {
    const config = `import { defineConfig } from 'vitest/config'
export default defineConfig({
  test: { projects: [{ test: { name: 'unit', include: ['test/**/*.test.ts'] } }] },
})
`
    write('vitest.config.ts', config)
    expect(await run('init')).toBe(1)
    expect(read('vitest.config.ts')).toBe(config)
    expect(out[0]).toContain(
      `it runs its tests as "test.projects", and a plugin of the root config does not reach a project that does not extend it: add \`${plugin}\` to the "plugins" of each project that runs rubric tests (or give those projects \`extends: true\` and add it to the root's "plugins")`,
    )
  })

  test('a commented-out plugins array and a string that names the plugin are not taken for code', async () => {
    write(
      'vitest.config.ts',
      `import { defineConfig } from 'vitest/config'
const note = "add rubricate/plugin later: rubricate()"
export default defineConfig({
  // plugins: [react()],
  test: { name: note },
})
`,
    )
    expect(await run('init')).toBe(0)
    expect(read('vitest.config.ts')).toBe(`import { defineConfig } from 'vitest/config'
import rubricate from 'rubricate/plugin'
const note = "add rubricate/plugin later: rubricate()"
export default defineConfig({
  plugins: [${plugin}],
  // plugins: [react()],
  test: { name: note },
})
`)
    expect(out[0]).toContain('  updated            vitest.config.ts')
    expect(await run('init')).toBe(0)
    expect(out[2]).toContain(
      '  unchanged          vitest.config.ts  the rubricate plugin is already there',
    )
  })

  test('a projects config the user gave the plugin by hand, as init said, counts as done on the next run', async () => {
    const config = `import rubricate from 'rubricate/plugin'
import { defineConfig } from 'vitest/config'
export default defineConfig({
  test: { projects: [{ plugins: [${plugin}], test: { name: 'rubric' } }] },
})
`
    write('vitest.config.ts', config)
    expect(await run('init')).toBe(0)
    expect(read('vitest.config.ts')).toBe(config)
    expect(out[0]).toContain(
      '  unchanged          vitest.config.ts  the rubricate plugin is already there',
    )
    expect(read('rubricate.d.ts')).toContain('rubricate/matchers')
  })

  test('a CRLF config and .gitignore stay CRLF', async () => {
    write('vitest.config.ts', esmConfig.replaceAll('\n', '\r\n'))
    write('.gitignore', 'node_modules\r\n')
    expect(await run('init')).toBe(0)
    for (const file of ['vitest.config.ts', '.gitignore']) {
      expect(read(file)).toContain('\r\n')
      expect(read(file).replaceAll('\r\n', '')).not.toContain('\n')
    }
    expect(read('.gitignore')).toBe('node_modules\r\n.rubricate/\r\n')
  })

  test('a read-only .gitignore leaves the config and the types unwritten, with a clear refusal and no stack', async () => {
    write('vitest.config.ts', esmConfig)
    write('.gitignore', 'node_modules\n')
    makeReadOnly(join(cwd, '.gitignore'))
    expect(await run('init')).toBe(1)
    expect(read('vitest.config.ts')).toBe(esmConfig)
    expect(existsSync(join(cwd, 'rubricate.d.ts'))).toBe(false)
    expect(out[0]).toMatch(
      /refused {12}\.gitignore {8}init cannot write it: it is not writable \((EACCES|EPERM)\): make the file writable\. Make the change by hand: add the line \.rubricate\/ to \.gitignore/,
    )
    expect(err.join('\n')).not.toMatch(/\n\s+at /)
  })

  test('a read-only config is refused with a clear message, nothing written', async () => {
    write('vitest.config.ts', esmConfig)
    makeReadOnly(join(cwd, 'vitest.config.ts'))
    expect(await run('init')).toBe(1)
    expect(existsSync(join(cwd, '.gitignore'))).toBe(false)
    expect(out[0]).toMatch(
      /refused {12}vitest\.config\.ts {2}init cannot write it: it is not writable/,
    )
  })

  test('a write that fails after the checks puts back every file written before it', () => {
    write('a.txt', 'old a\n')
    write('c.txt', 'old c\n')
    makeReadOnly(join(cwd, 'c.txt'))
    expect(() =>
      writeAllOrNothing(cwd, [
        { file: 'a.txt', text: 'new a\n' },
        { file: 'b.txt', text: 'new b\n' },
        { file: 'c.txt', text: 'new c\n' },
      ]),
    ).toThrow(
      /^\[rubricate\] init could not write "c\.txt" \((EACCES|EPERM)\), so it changed nothing: "a\.txt", "b\.txt" were put back as they were\. Make "c\.txt" writable \(or make the change by hand\), then run "npx rubricate init" again\./,
    )
    expect(read('a.txt')).toBe('old a\n')
    expect(existsSync(join(cwd, 'b.txt'))).toBe(false)
    expect(read('c.txt')).toBe('old c\n')
  })

  test('without TypeScript in the project, a config is refused with the line to add', async () => {
    const bare = tempDir('rubricate-init-bare-')
    writeFileSync(join(bare, 'vitest.config.mjs'), esmConfig)
    const argv = ['init']
    expect(
      await rubricateCommand(argv, { cwd: bare, out: (t) => out.push(t), err: (t) => err.push(t) }),
    ).toBe(1)
    expect(out[0]).toContain(
      `init reads the config with TypeScript's parser (so that it never edits a comment or a string), and this project has no "typescript" package: install it (npm install -D typescript) and run init again, or add \`${plugin}\` to its "plugins"`,
    )
    expect(readFileSync(join(bare, 'vitest.config.mjs'), 'utf8')).toBe(esmConfig)
    expect(lstatSync(bare).isDirectory()).toBe(true)
  })
})

describe('24. The CLI refuses what it cannot do', () => {
  test('verify of a misspelt --dir is a usage error naming the path, not "✓ 0 entries verified"', async () => {
    mkdirSync(join(cwd, '__cassettes__'))
    expect(await run('cassettes', 'verify', '--dir', '__casettes__')).toBe(2)
    expect(out.join('\n')).not.toContain('✓')
    expect(err[0]).toBe(
      linked(
        '[rubricate] "__casettes__", the cassette folder given with --dir, does not exist. Check the path for a typo; a folder that is to hold recordings is made by the first recording run ("npx vitest run" with a key).',
        'usage',
      ),
    )
  })

  test('verify --dir of a file is a usage error saying it is a file', async () => {
    write('notes.json', '{}')
    expect(await run('cassettes', 'verify', '--dir', 'notes.json', '--json')).toBe(2)
    expect(out).toEqual([])
    expect(err[0]).toContain(
      '"notes.json", the cassette folder given with --dir, is a file, not a folder. Pass the folder that holds the cassettes (--dir <folder>).',
    )
  })

  test('stats of a cassette folder that does not exist fails, naming it', async () => {
    expect(await run('cassettes', 'stats')).toBe(1)
    expect(out).toEqual([])
    expect(err[0]).toContain(
      '"__cassettes__", the cassette folder (the default, as there is no Vitest config here), does not exist.',
    )
  })

  test('verify, stats and migrate of an empty folder fail unless --allow-empty says an empty folder is expected', async () => {
    mkdirSync(join(cwd, 'recordings'))
    for (const command of ['verify', 'stats', 'migrate']) {
      expect(await run('cassettes', command, '--dir', 'recordings')).toBe(1)
      expect(err.at(-1)).toContain(
        `"recordings/" holds no cassette entries, so "rubricate cassettes ${command}" has nothing to work on. Check that it is the cassette folder (--dir <folder>, or cassettes.dir in the plugin options); pass --allow-empty when an empty folder is expected`,
      )
    }
    expect(out).toEqual([])
    expect(await run('cassettes', 'verify', '--dir', 'recordings', '--allow-empty')).toBe(0)
    expect(out[0]).toMatch(/^✓ 0 entries in recordings\/ verified/)
  })

  test('prune --root of a folder that does not exist is a usage error naming the root', async () => {
    expect(await run('cassettes', 'prune', '--root', 'no-such-project')).toBe(2)
    expect(err[0]).toBe(
      linked(
        '[rubricate] "no-such-project", the project folder given with --root, does not exist. Pass the folder of the project whose last Vitest run decides what to prune (default: the current folder).',
        'usage',
      ),
    )
  })

  test.for([
    { name: 'a file', make: (at: string) => writeFileSync(at, 'not a folder') },
    {
      name: 'a dangling link',
      make: (at: string) => symlinkSync(join(tempDir('rubricate-gone-'), 'gone'), at),
    },
  ])(
    "a scratch folder that is $name is explained as the user's to fix, not as a bug",
    async ({ name, make }) => {
      runtimeState().run.root = cwd
      runtimeState().run.runId = randomUUID()
      onTestFinished(() => {
        resetRubricateConfig()
        runtimeState().run.root = undefined
        runtimeState().run.runId = undefined
      })
      mkdirSync(join(cwd, 'node_modules', '.cache'), { recursive: true })
      const scratch = join(cwd, 'node_modules', '.cache', 'rubricate')
      make(scratch)
      configureRubricate({ maxLiveCalls: 5 })
      const { server, judge } = await judgeServer(fakeReply.json(SPLIT_VERDICT))
      const { root } = await failureOf(judgeRubric(judge))
      expect(root.code).toBe('RUBRICATE_USAGE')
      expect(root.message).not.toContain('bug in rubricate')
      const what =
        name === 'a file'
          ? '"node_modules/.cache/rubricate" is a file, not a folder'
          : `"node_modules/.cache/rubricate" is a link to "${readlinkSync(scratch)}", which does not exist`
      expect(root.message).toMatch(
        new RegExp(
          `^\\[rubricate\\] Could not write rubricate's scratch files at "node_modules/\\.cache/rubricate/[0-9a-f-]+" \\((ENOTDIR|EEXIST|ENOENT)\\): ${escapeRegExp(what)}\\. rubricate keeps its scratch files there \\(live-call counts, notes between workers, the record of the last run\\); they are safe to delete\\. Remove "node_modules/\\.cache/rubricate" \\(or make it a writable folder\\) and run again\\.\\nSee `,
        ),
      )
      expect(server.requests).toHaveLength(0)
    },
  )
})

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
}
