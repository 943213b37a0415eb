// Packs the project and installs the tarball into an ESM and a CommonJS project, the way a user
// would, then loads every entry and type-checks against the shipped `.d.ts`. Needs `dist/`:
// `npm test` builds before it runs the tests.
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startFakeOpenAI } from '../../src/testing'
import { loopbackGuardOption } from '../support/run-vitest'

const run = promisify(execFile)
const root = resolve(import.meta.dirname, '../..')
// Inside the repository, so that the projects find the peer dependencies (vitest, openai, msw)
// in the repository's node_modules, exactly as they would find their own.
// One folder per process: several checkouts may share one node_modules.
const work = join(root, `node_modules/.cache/rubricate-pack-test-${process.pid}`)
let tarball = ''

beforeAll(async () => {
  if (!existsSync(join(root, 'dist/index.js'))) {
    throw new Error('dist/ is missing: run "npm run build" first (npm test does it for you).')
  }
  await rm(work, { recursive: true, force: true })
  await mkdir(work, { recursive: true })
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: root })
  tarball = join(work, JSON.parse(stdout)[0].filename)
}, 120_000)

afterAll(async () => {
  await rm(work, { recursive: true, force: true })
})

async function project(
  name: string,
  packageJson: object,
  files: Record<string, string>,
): Promise<string> {
  const dir = join(work, name)
  await mkdir(dir, { recursive: true })
  await writeFile(
    join(dir, 'package.json'),
    JSON.stringify({ name, private: true, ...packageJson }, null, 2),
  )
  for (const [file, text] of Object.entries(files)) {
    await mkdir(join(dir, file, '..'), { recursive: true })
    await writeFile(join(dir, file), text)
  }
  // --legacy-peer-deps: vitest is a required peer, and the projects use the repository's copy
  // (found up the folder tree) rather than a second one npm would install beside the tarball.
  await run(
    'npm',
    [
      'install',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      '--legacy-peer-deps',
      tarball,
    ],
    { cwd: dir },
  )
  return dir
}

const tsc = join(root, 'node_modules/typescript/bin/tsc')
const vitest = join(root, 'node_modules/vitest/vitest.mjs')

test('the arethetypeswrong check passes for every entry (node16 and bundler resolution)', async () => {
  const attw = join(root, 'node_modules/@arethetypeswrong/cli/dist/index.js')
  // ESM-only entries (setup, matchers, evals) import vitest, which cannot be required: that warning is by design.
  // A problem makes attw exit non-zero, which rejects here with its report.
  const { stdout } = await run(
    process.execPath,
    [
      attw,
      tarball,
      '--profile',
      'node16',
      '--ignore-rules',
      'cjs-resolves-to-esm',
      '--format',
      'ascii',
    ],
    { cwd: root },
  )
  expect(stdout).toContain('"rubricate/matchers"')
  expect(stdout).toContain('"rubricate/evals"')
  expect(stdout).toContain('"rubricate/cassettes"')
}, 60_000)

test('an ESM project imports every entry and type-checks against the shipped types', async () => {
  const dir = await project(
    'esm-project',
    { type: 'module' },
    {
      'check.ts': `
        /// <reference types="rubricate/matchers" />
        import * as core from 'rubricate'
        import plugin, { rubricate } from 'rubricate/plugin'
        import RubricateReporter from 'rubricate/reporter'
        import { startFakeOpenAI, fakeReply } from 'rubricate/testing'
        import type { ToSatisfyRubricOptions } from 'rubricate/matchers'
        import { describeEval, type DescribeEvalOptions } from 'rubricate/evals'
        import { attachRubricate, cached, createCassetteFetch, type MswServerLike } from 'rubricate/cassettes'
        import { expect } from 'vitest'

        core.configureRubricate({ cassettes: { mode: 'replay' } })
        const options: ToSatisfyRubricOptions = { input: 'question' }
        const evalOptions: DescribeEvalOptions<{ input: string; expected: string }, string> = {
          data: './rows.jsonl',
          task: (row) => row.input.toUpperCase(),
          scorers: [({ output, expected }) => (output === expected ? 1 : 0)],
          passRate: 0.9,
        }
        export const checks = [plugin, rubricate, RubricateReporter, startFakeOpenAI, fakeReply, options, describeEval, evalOptions, attachRubricate, cached, createCassetteFetch]
        export type Server = MswServerLike
        // @ts-expect-error: the cassette plumbing lives in rubricate/cassettes, not beside the scoring API
        core.attachRubricate
        export async function typed(): Promise<void> {
          await expect('reply').toSatisfyRubric('- Acknowledges the charge', { input: 'q' })
          // @ts-expect-error: the asymmetric form cannot work for async matchers, so it does not type-check
          expect.toSatisfyRubric
        }
      `,
      // Type-checked only (it is not run): the setup entry's types bring the matchers onto
      // Vitest's Assertion, in a test file as a user writes one.
      'rubric.test.ts': `
        import 'rubricate/setup'
        import type { RubricCriteriaInput, ToSatisfyRubricOptions } from 'rubricate/matchers'
        import { expect, test } from 'vitest'

        type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2
          ? true
          : false

        test('answers a refund question', async () => {
          const criteria: RubricCriteriaInput = ['- Acknowledges the charge', { description: 'Apologises', required: false }]
          const options: ToSatisfyRubricOptions = { input: 'q', samples: 3, cassettes: 'replay' }
          const pending = expect('reply').toSatisfyRubric(criteria, options)
          const exactlyPromiseOfVoid: Equals<typeof pending, Promise<void>> = true
          await pending
          await expect('reply').not.toSatisfyRubric('- Mentions refund')
          await expect('reply').toPassScorer({ run: async () => ({ score: 1 }) }, { threshold: 0.5 })
          // @ts-expect-error: criteria are a string, a list or a scorer, never a number
          await expect('reply').toSatisfyRubric(42)
          // @ts-expect-error: the options are typed
          await expect('reply').toSatisfyRubric('- a', { evaluation: 'sometimes' })
          return exactlyPromiseOfVoid
        })
      `,
      'load.mjs': `
        const entries = ['rubricate', 'rubricate/plugin', 'rubricate/reporter', 'rubricate/testing', 'rubricate/cassettes', 'rubricate/matchers', 'rubricate/evals']
        const loaded = {}
        for (const entry of entries) loaded[entry] = Object.keys(await import(entry)).sort()
        console.log(JSON.stringify(loaded))
      `,
      'tsconfig.json': JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: [],
          // A side-effect import that resolves to no types is an error, so 'rubricate/setup' must.
          noUncheckedSideEffectImports: true,
        },
        files: ['check.ts', 'rubric.test.ts'],
      }),
    },
  )
  const { stdout } = await run(process.execPath, ['load.mjs'], { cwd: dir })
  const loaded = JSON.parse(stdout)
  expect(loaded.rubricate).toContain('configureRubricate')
  expect(loaded['rubricate/plugin']).toEqual(expect.arrayContaining(['default', 'rubricate']))
  expect(loaded['rubricate/reporter']).toContain('default')
  expect(loaded['rubricate/testing']).toEqual(
    expect.arrayContaining(['fakeReply', 'startFakeOpenAI']),
  )
  expect(loaded['rubricate/evals']).toEqual(['describeEval'])
  expect(loaded['rubricate/cassettes']).toEqual([
    'attachRubricate',
    'cached',
    'createCassetteFetch',
    'createCassetteHandlers',
  ])
  expect(loaded.rubricate).not.toContain('attachRubricate')
  await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: dir })
}, 120_000)

test('a CommonJS project requires the dual entries and runs Vitest with a vitest.config.ts importing the plugin and a vitest.config.cts requiring it', async () => {
  const dir = await project(
    'cjs-project',
    {},
    {
      'load.cjs': `
        const loaded = {}
        for (const entry of ['rubricate', 'rubricate/plugin', 'rubricate/reporter', 'rubricate/testing', 'rubricate/cassettes']) {
          loaded[entry] = Object.keys(require(entry)).sort()
        }
        console.log(JSON.stringify(loaded))
      `,
      'check.ts': `
        import { configureRubricate } from 'rubricate'
        import rubricate from 'rubricate/plugin'
        import RubricateReporter, { RubricateSummaryReporter, type RubricateReporterOptions } from 'rubricate/reporter'
        import { startFakeOpenAI } from 'rubricate/testing'
        import type { Reporter } from 'vitest/node'
        configureRubricate({ judgeConcurrency: 2 })
        export const plugin = rubricate({ cassettes: { mode: 'off' } })
        export const start = startFakeOpenAI
        const options: RubricateReporterOptions = { outputFile: 'rubricate.json', jobSummary: false }
        export const reporters: Reporter[] = [new RubricateReporter(options), new RubricateSummaryReporter()]
        // @ts-expect-error: the reporter's options are typed
        new RubricateReporter({ jobSummary: 'yes' })
      `,
      'vitest.config.ts': `
        import { defineConfig } from 'vitest/config'
        import rubricate from 'rubricate/plugin'
        export default defineConfig({ plugins: [rubricate()], test: { reporters: ['default'] } })
      `,
      // The README's CommonJS form, in TypeScript.
      'vitest.config.cts': `
        const { defineConfig } = require('vitest/config')
        const { rubricate } = require('rubricate/plugin')
        module.exports = defineConfig({ plugins: [rubricate()], test: { reporters: ['default'] } })
      `,
      'smoke.test.ts': `
        import { test, expect } from 'vitest'
        import { startFakeOpenAI } from 'rubricate/testing'
        test('loads', async () => {
          const server = await startFakeOpenAI()
          expect(server.baseURL).toContain('127.0.0.1')
          await server.close()
        })
      `,
      'tsconfig.json': JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: [],
        },
        files: ['check.ts'],
      }),
    },
  )
  const { stdout } = await run(process.execPath, ['load.cjs'], { cwd: dir })
  const loaded = JSON.parse(stdout)
  expect(loaded.rubricate).toContain('configureRubricate')
  expect(loaded['rubricate/plugin']).toEqual(expect.arrayContaining(['default', 'rubricate']))
  expect(loaded['rubricate/reporter']).toContain('default')
  expect(loaded['rubricate/testing']).toContain('startFakeOpenAI')
  expect(loaded['rubricate/cassettes']).toContain('createCassetteFetch')
  await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: dir })
  const vitestRun = await run(process.execPath, [vitest, 'run'], {
    cwd: dir,
    env: { ...process.env, CI: 'true', NO_COLOR: '1' },
  })
  expect(vitestRun.stdout).toContain('1 passed')
  const ctsRun = await run(process.execPath, [vitest, 'run', '--config', 'vitest.config.cts'], {
    cwd: dir,
    env: { ...process.env, CI: 'true', NO_COLOR: '1' },
  })
  expect(ctsRun.stdout).toContain('1 passed')
}, 120_000)

test('a new project set up as the README says gets typed matchers, with no tsconfig edit', async () => {
  const dir = await project(
    'readme-project',
    { type: 'module' },
    {
      'vitest.config.ts': `
        import { defineConfig } from 'vitest/config'
        import rubricate from 'rubricate/plugin'

        export default defineConfig({
          plugins: [rubricate({ judge: 'openai/gpt-4.1-mini' })],
        })
      `,
      'rubricate.d.ts': '/// <reference types="rubricate/matchers" />\n',
      'support.test.ts': `
        import { expect, test } from 'vitest'

        test('answers a refund question', async () => {
          await expect('reply').toSatisfyRubric('- Acknowledges the double charge', { input: 'q' })
          await expect({ text: 'reply' }).not.toPassScorer({ run: async () => ({ score: 0 }) })
          // @ts-expect-error: the options are typed
          await expect('reply').toSatisfyRubric('- a', { samples: 'three' })
        })
      `,
      'tsconfig.json': JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
        },
      }),
    },
  )
  await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: dir })
}, 120_000)

// msw is an optional peer: a project that only judges strings installs vitest and rubricate, no
// msw. The project lives outside the repository (whose node_modules holds msw); vitest and openai
// are linked from the repository's node_modules, where node resolves them by their real path, so
// rubricate, installed from the tarball into the project, cannot reach msw. It is a CommonJS
// project whose config is a vitest.config.cjs that requires the plugin, as the README shows.
test('a CommonJS project without msw records and replays a judged toSatisfyRubric offline, with one notice, from a vitest.config.cjs', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'rubricate-no-msw-'))
  try {
    const files: Record<string, string> = {
      'package.json': JSON.stringify({ name: 'no-msw', private: true }),
      'vitest.config.cjs': `const { defineConfig } = require('vitest/config')
const { rubricate } = require('rubricate/plugin')

module.exports = defineConfig({
  plugins: [rubricate({ judge: 'openai/gpt-4.1-mini' })],
})
`,
      'support.test.ts': `import { expect, test } from 'vitest'
import { attachRubricate } from 'rubricate/cassettes'

test('answers a refund question', async () => {
  const reply = 'Sorry about the double charge: I refunded the second one to your card.'
  await expect(reply).toSatisfyRubric(\`
    - Acknowledges the double charge
    - Explains how the refund will be processed
  \`, { input: 'I was charged twice for my order.' })
})

test('attachRubricate says that it needs msw', () => {
  const server = { listHandlers: () => [], resetHandlers: () => {}, events: { on: () => {} } }
  expect(() => attachRubricate(server)).toThrow('attachRubricate(server) needs msw')
})
`,
      'second.test.ts': `import { expect, test } from 'vitest'

test('a second file, in another worker', async () => {
  await expect('Hello').toSatisfyRubric('- Greets the user', { input: 'Hi' })
})
`,
    }
    for (const [file, text] of Object.entries(files)) await writeFile(join(dir, file), text)
    await run(
      'npm',
      [
        'install',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        '--ignore-scripts',
        '--legacy-peer-deps',
        tarball,
      ],
      { cwd: dir },
    )
    for (const name of ['vitest', 'openai']) {
      await symlink(join(root, 'node_modules', name), join(dir, 'node_modules', name), 'dir')
    }
    expect(existsSync(join(dir, 'node_modules/msw'))).toBe(false)
    const judge = await startFakeOpenAI({
      reply: (request) => {
        const messages = (request.body as { messages: { role: string; content: string }[] })
          .messages
        const prompt = messages.find((m) => m.role === 'user')?.content ?? ''
        const ids = [...prompt.matchAll(/^(c\d+)\. \[(?:required|optional)\] /gm)].map((m) => m[1])
        return {
          criteria: Object.fromEntries(
            ids.map((id) => [id, { reasoning: 'It does.', satisfied: true }]),
          ),
          overallAssessment: 'Good.',
        }
      },
    })
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' }
    const vitestIn = join(dir, 'node_modules/vitest/vitest.mjs')
    let recorded: { stdout: string; stderr: string }
    try {
      recorded = await run(process.execPath, [vitestIn, 'run'], {
        cwd: dir,
        env: {
          ...env,
          RUBRICATE_CASSETTES: 'record',
          OPENAI_BASE_URL: judge.baseURL,
          OPENAI_API_KEY: 'sk-no-msw',
        },
      })
    } finally {
      await judge.close()
    }
    expect(recorded.stdout).toContain(
      'Judge  2 calls: 0 replayed, 2 live (all recorded into cassettes)',
    )
    const notice =
      "[rubricate] msw is not installed, so your agents' model calls are not recorded or replayed"
    const output = `${recorded.stdout}\n${recorded.stderr}`
    expect(output.split(notice).length - 1).toBe(1)
    const entries = await readdir(join(dir, '__cassettes__'), { recursive: true })
    // Two entries; the reply schemas they share are stored once each under _shared/schemas/.
    const written = entries.map(String).filter((file) => file.endsWith('.json'))
    expect(written.filter((file) => !file.includes('schemas'))).toHaveLength(2)

    const replayed = await run(process.execPath, [vitestIn, 'run'], {
      cwd: dir,
      env: { ...env, CI: 'true', NODE_OPTIONS: loopbackGuardOption },
    })
    expect(replayed.stdout).toContain('✓ [required] Acknowledges the double charge')
    expect(replayed.stdout).toContain('Judge  2 calls: 2 replayed, 0 live')
    expect(replayed.stdout).toContain('3 passed')

    // blockNetwork needs no msw; its refusal says that without msw no agent call is recorded.
    await writeFile(
      join(dir, 'blocked.test.ts'),
      `import { test } from 'vitest'
test('calls a model host', async () => {
  await fetch('http://192.0.2.1/v1/chat/completions', { method: 'POST', body: '{}' }).catch(() => {})
})
`,
    )
    await writeFile(
      join(dir, 'vitest.blocked.config.cjs'),
      `const { defineConfig } = require('vitest/config')
const { rubricate } = require('rubricate/plugin')
module.exports = defineConfig({
  plugins: [rubricate({ judge: 'openai/gpt-4.1-mini', cassettes: { blockNetwork: true } })],
})
`,
    )
    const blockedRun = [vitestIn, 'run', '--config', 'vitest.blocked.config.cjs', 'blocked.test.ts']
    const blocked = await run(process.execPath, blockedRun, {
      cwd: dir,
      env: { ...env, CI: 'true', NODE_OPTIONS: loopbackGuardOption },
    }).then(
      () => undefined,
      (error: { stdout: string; stderr: string }) => `${error.stdout}\n${error.stderr}`,
    )
    expect(blocked).toContain(
      'rubricate never saw it because msw is not installed, and without msw no agent call is recorded or replayed: install it (npm i -D msw)',
    )
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}, 180_000)
