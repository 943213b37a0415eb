// `rubricate init --fast` on a fresh ESM project with the packed tarball: the config it writes
// runs rubric files in a project of their own whose files share workers, and the other files in
// the suite's own settings; a rubric test records, then replays under CI with no key. Needs dist/.
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, expect, test } from 'vitest'
import { startFakeOpenAI } from '../../src/testing'
import { loopbackGuardOption, repoRoot } from '../support/run-vitest'

const run = promisify(execFile)
let dir = ''

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true })
})

const GREETS = {
  criteria: { c1: { reasoning: 'It greets.', satisfied: true } },
  overallAssessment: 'Good.',
}

test('rubricate init --fast writes a config whose rubric files share workers in their own project, and a rubric test in it records and replays', async () => {
  if (!existsSync(join(repoRoot, 'dist/cli.js'))) {
    throw new Error('dist/ is missing: run "npm run build" first (npm test does it for you).')
  }
  dir = await mkdtemp(join(tmpdir(), 'rubricate-init-fast-'))
  const packed = await run('npm', ['pack', '--json', '--pack-destination', dir], { cwd: repoRoot })
  const tarball = join(dir, JSON.parse(packed.stdout)[0].filename)
  const project = join(dir, 'support-bot')
  await run('mkdir', [project])
  await writeFile(
    join(project, 'package.json'),
    JSON.stringify({ name: 'support-bot', version: '1.0.0', type: 'module' }, null, 2),
  )
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
    { cwd: project },
  )
  for (const name of ['vitest', 'openai', 'msw']) {
    await symlink(join(repoRoot, 'node_modules', name), join(project, 'node_modules', name), 'dir')
  }
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' }
  const bin = join(project, 'node_modules/.bin/rubricate')
  const init = await run(bin, ['init', '--fast'], { cwd: project, env })
  expect(init.stdout).toContain('created            vitest.config.ts')
  const config = await readFile(join(project, 'vitest.config.ts'), 'utf8')
  expect(config).toContain("isolate: false, pool: 'threads'")
  expect(config).toContain("rubricate({ judge: 'openai/gpt-4.1-mini', annotations: 'failures' })")
  // A second run changes nothing.
  const again = await run(bin, ['init', '--fast', '--json'], { cwd: project, env })
  expect(JSON.parse(again.stdout).steps.map((s: { action: string }) => s.action)).toEqual([
    'unchanged',
    'unchanged',
    'unchanged',
  ])
  for (const name of ['greet', 'thanks']) {
    await writeFile(
      join(project, `${name}.rubric.test.ts`),
      `import { expect, test } from 'vitest'\n\ntest('${name}s the user', async () =>\n  expect('Hello! ${name}').toSatisfyRubric('- Greets the user'))\n`,
    )
  }
  await writeFile(
    join(project, 'sum.test.ts'),
    `import { expect, test } from 'vitest'\n\ntest('adds', () => expect(1 + 1).toBe(2))\n`,
  )

  const judge = await startFakeOpenAI({ reply: () => GREETS })
  const vitest = join(project, 'node_modules/vitest/vitest.mjs')
  let recorded: { stdout: string; stderr: string }
  try {
    recorded = await run(process.execPath, [vitest, 'run'], {
      cwd: project,
      env: { ...env, OPENAI_API_KEY: 'sk-init-test', OPENAI_BASE_URL: judge.baseURL },
    })
  } finally {
    await judge.close()
  }
  expect(judge.requests).toHaveLength(2)
  expect(recorded.stdout).toContain('2 live (all recorded into cassettes)')

  const replayed = await run(process.execPath, [vitest, 'run'], {
    cwd: project,
    env: { ...env, CI: 'true', NODE_OPTIONS: loopbackGuardOption },
  })
  // Each file in the project the config gives it.
  expect(replayed.stdout).toMatch(/\|rubric\| greet\.rubric\.test\.ts/)
  expect(replayed.stdout).toMatch(/\|rubric\| thanks\.rubric\.test\.ts/)
  expect(replayed.stdout).toMatch(/\|unit\| sum\.test\.ts/)
  expect(replayed.stdout).toContain('2 replayed, 0 live')
  expect(replayed.stdout).toContain('3 passed')
}, 240_000)
