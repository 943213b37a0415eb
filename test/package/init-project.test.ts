// A new user's first recorded test, end to end: an empty CommonJS project (what `npm init -y`
// writes), the packed tarball installed, `rubricate init`, the three-line test the init prints,
// one run that records against a judge on 127.0.0.1, one replay under CI=true with no key and
// every connection outside loopback refused. Needs dist/ (npm test builds it).
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises'
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

test('rubricate init and the three lines it prints give a recorded test that replays offline, with no Vite warning', async () => {
  if (!existsSync(join(repoRoot, 'dist/cli.js'))) {
    throw new Error('dist/ is missing: run "npm run build" first (npm test does it for you).')
  }
  dir = await mkdtemp(join(tmpdir(), 'rubricate-init-'))
  const packed = await run('npm', ['pack', '--json', '--pack-destination', dir], { cwd: repoRoot })
  const tarball = join(dir, JSON.parse(packed.stdout)[0].filename)
  const project = join(dir, 'support-bot')
  await run('mkdir', [project])
  await writeFile(
    join(project, 'package.json'),
    JSON.stringify({ name: 'support-bot', version: '1.0.0', type: 'commonjs' }, null, 2),
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
  // The peers from the repository, as a user's own install would bring them.
  for (const name of ['vitest', 'openai', 'msw']) {
    await symlink(join(repoRoot, 'node_modules', name), join(project, 'node_modules', name), 'dir')
  }
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' }
  const bin = join(project, 'node_modules/.bin/rubricate')
  const init = await run(bin, ['init'], { cwd: project, env })
  expect(init.stdout).toContain('created            vitest.config.mts')
  // The test exactly as init prints it: the indented lines between "Next:" and "Record".
  const printed = init.stdout.split('\n')
  const from = printed.findIndex((line) => line.startsWith('Next:')) + 2
  const to = printed.findIndex((line) => line.startsWith('Record'))
  const lines = printed
    .slice(from, to)
    .map((line) => line.slice(2))
    .join('\n')
    .trim()
    .split('\n')
  expect(lines).toHaveLength(5)
  await writeFile(join(project, 'greet.test.ts'), `${lines.join('\n')}\n`)
  // A second init changes nothing.
  const again = await run(bin, ['init', '--json'], { cwd: project, env })
  expect(JSON.parse(again.stdout).steps.map((s: { action: string }) => s.action)).toEqual([
    'unchanged',
    'unchanged',
    'unchanged',
  ])

  const judge = await startFakeOpenAI({
    reply: (request) => {
      const messages = (request.body as { messages: { role: string; content: string }[] }).messages
      const prompt = messages.find((m) => m.role === 'user')?.content ?? ''
      const ids = [...prompt.matchAll(/^(c\d+)\. \[(?:required|optional)\] /gm)].map((m) => m[1])
      return {
        criteria: Object.fromEntries(
          ids.map((id) => [id, { reasoning: 'It greets.', satisfied: true }]),
        ),
        overallAssessment: 'Good.',
      }
    },
  })
  const vitest = join(project, 'node_modules/vitest/vitest.mjs')
  let recorded: { stdout: string; stderr: string }
  try {
    // The command init prints: a key and, for this judge, its base URL; no CI, so a miss records.
    recorded = await run(process.execPath, [vitest, 'run'], {
      cwd: project,
      env: { ...env, OPENAI_API_KEY: 'sk-init-test', OPENAI_BASE_URL: judge.baseURL },
    })
  } finally {
    await judge.close()
  }
  expect(judge.requests).toHaveLength(1)
  expect(recorded.stdout).toContain('1 live (all recorded into cassettes)')
  const files = (await readdir(join(project, '__cassettes__'), { recursive: true })).map(String)
  expect(files.some((file) => file.startsWith('greet.test.ts') && file.endsWith('.json'))).toBe(
    true,
  )

  const replayed = await run(process.execPath, [vitest, 'run'], {
    cwd: project,
    env: { ...env, CI: 'true', NODE_OPTIONS: loopbackGuardOption },
  })
  expect(replayed.stdout).toContain('✓ [required] Greets the user')
  expect(replayed.stdout).toContain('1 replayed, 0 live')
  expect(replayed.stdout).toContain('1 passed')
  for (const output of [recorded, replayed]) {
    expect(`${output.stdout}${output.stderr}`).not.toContain('Your Vite config')
  }
  expect(await readFile(join(project, '.gitignore'), 'utf8')).toBe('.rubricate/\n')
}, 240_000)
