#!/usr/bin/env node
// A newcomer's first run, on whatever Node is first on PATH (the lanes put theirs there):
//   1. `npm i -D vitest rubricate openai` (the packed tarball) in an empty project, no msw (an
//      optional peer: a project whose tests only judge strings does without it);
//   2. the README's setup (plugin, matcher types) and one rubric test;
//   3. a record run against a fake judge on 127.0.0.1, then a replay run with CI=true, no API
//      key and every connection outside loopback refused: the test passes, replayed, and the
//      notice that agents' calls are not recorded without msw is printed once a run;
//   4. the README's `npm i -D msw`: npm must resolve every peer dependency without a warning or an
//      error; steps 3 again from an empty cassette folder, now without the notice.
// Needs dist/ (npm test builds it) and the npm registry, or an npm cache that holds the packages.
import { execFileSync, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

const root = resolve(import.meta.dirname, '..')
const guard = pathToFileURL(join(root, 'test/support/loopback-guard.mjs')).href
const work = mkdtempSync(join(tmpdir(), 'rubricate-fresh-project-'))
const project = join(work, 'support-bot')
const started = Date.now()
const log = (line) => console.log(`[fresh project] ${line}`)

try {
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', work], {
      cwd: root,
      encoding: 'utf8',
    }),
  )
  const tarball = join(work, packed[0].filename)
  mkdirSync(project)
  write(
    'package.json',
    `${JSON.stringify({ name: 'support-bot', private: true, type: 'module' }, null, 2)}\n`,
  )

  await install(['vitest', tarball, 'openai'])
  write(
    'vitest.config.ts',
    `import { defineConfig } from 'vitest/config'
import rubricate from 'rubricate/plugin'

export default defineConfig({
  plugins: [rubricate({ judge: 'openai/gpt-4.1-mini' })],
})
`,
  )
  write('rubricate.d.ts', '/// <reference types="rubricate/matchers" />\n')
  write(
    'support.test.ts',
    `import { expect, test } from 'vitest'

test('answers a refund question', async () => {
  const reply = 'Sorry about the double charge: I refunded the second one to your card.'
  await expect(reply).toSatisfyRubric(\`
    - Acknowledges the double charge
    - Explains how the refund will be processed
  \`, { input: 'I was charged twice for my order.' })
})
`,
  )

  await recordAndReplay('without msw', true)

  await install(['msw'])
  const versions = Object.fromEntries(
    ['vitest', 'msw', 'openai', 'rubricate'].map((name) => [name, installed(name)]),
  )
  log(
    `node ${process.version}: ${Object.entries(versions)
      .map(([n, v]) => `${n}@${v}`)
      .join(' ')}`,
  )
  const [major, minor] = process.versions.node.split('.').map(Number)
  const newest = major > 22 || (major === 22 && minor >= 12)
  const expected = newest ? { vitest: 5, msw: 3, openai: 7 } : { vitest: 4, msw: 2, openai: 6 }
  for (const [name, want] of Object.entries(expected)) {
    if (Number(versions[name].split('.')[0]) !== want) {
      throw new Error(
        `npm installed ${name}@${versions[name]} on Node ${process.version}; expected major ${want}.`,
      )
    }
  }
  await run('npm', ['ls', '--all'], {}, 'npm ls found problems in the tree')
  rmSync(join(project, '__cassettes__'), { recursive: true, force: true })
  await recordAndReplay('with msw', false)
  log(`passed in ${Math.round((Date.now() - started) / 1000)} s`)
} catch (error) {
  console.error(`[fresh project] FAILED: ${error.message}`)
  console.error(`[fresh project] the project is kept in ${project}`)
  process.exit(1)
}
rmSync(work, { recursive: true, force: true })

/** Record against a fake judge, then replay offline; the msw notice printed once, or never. */
async function recordAndReplay(label, withoutMsw) {
  // The judge the recording talks to: rubricate's own fake OpenAI, as installed in the project.
  const testing = await import(
    pathToFileURL(join(project, 'node_modules/rubricate/dist/testing.js')).href
  )
  const judge = await testing.startFakeOpenAI({
    reply: (request) => {
      const prompt = request.body.messages.find((m) => m.role === 'user').content
      const ids = [...prompt.matchAll(/^(c\d+)\. \[(?:required|optional)\] /gm)].map((m) => m[1])
      return {
        criteria: Object.fromEntries(
          ids.map((id) => [id, { reasoning: 'It does.', satisfied: true }]),
        ),
        overallAssessment: 'Good.',
      }
    },
  })
  let recorded
  try {
    recorded = await vitest({
      RUBRICATE_CASSETTES: 'record',
      OPENAI_BASE_URL: judge.baseURL,
      OPENAI_API_KEY: 'sk-fresh-project',
    })
  } finally {
    await judge.close()
  }
  expectIn(
    recorded,
    'Judge  1 call: 0 replayed, 1 live (all recorded into cassettes)',
    `the record run ${label}`,
  )
  const cassettes = readdirSync(join(project, '__cassettes__'), { recursive: true })
  log(
    `${label}: recorded ${cassettes.filter((f) => String(f).endsWith('.json')).length} cassette files`,
  )

  const replayed = await vitest({ CI: 'true', NODE_OPTIONS: `--import=${guard}` })
  expectIn(replayed, '✓ [required] Acknowledges the double charge', `the replay run ${label}`)
  expectIn(replayed, 'Judge  1 call: 1 replayed, 0 live', `the replay run ${label}`)
  const notice = "[rubricate] msw is not installed, so your agents' model calls"
  for (const [what, result] of [
    ['record', recorded],
    ['replay', replayed],
  ]) {
    const count = `${result.stdout}\n${result.stderr}`.split(notice).length - 1
    if (count !== (withoutMsw ? 1 : 0)) {
      throw new Error(
        `the ${what} run ${label} printed the msw notice ${count} times:\n${result.stdout}\n${result.stderr}`,
      )
    }
  }
}

function write(file, text) {
  writeFileSync(join(project, file), text)
}

function installed(name) {
  return JSON.parse(readFileSync(join(project, 'node_modules', name, 'package.json'), 'utf8'))
    .version
}

/** `npm i -D ...args`: must succeed with no peer-dependency warning on its output. */
async function install(args) {
  const result = await run(
    'npm',
    ['i', '-D', '--no-audit', '--no-fund', ...args],
    {},
    `npm i -D ${args.join(' ')} failed`,
  )
  const output = `${result.stdout}\n${result.stderr}`
  const peerTrouble = output
    .split('\n')
    .filter((line) => /ERESOLVE|peer dep|conflicting peer|invalid|overriding/i.test(line))
  if (peerTrouble.length > 0) {
    throw new Error(
      `npm i -D ${args.join(' ')} reported peer dependency trouble:\n${peerTrouble.join('\n')}`,
    )
  }
}

/** `vitest run` in the project with only these variables (and PATH, HOME, temp, locale). */
async function vitest(extra) {
  const env = { NO_COLOR: '1', ...extra }
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG']) {
    if (process.env[name] !== undefined) env[name] = process.env[name]
  }
  return run('npx', ['vitest', 'run'], env, 'vitest run failed', true)
}

/** Run a command in the project (asynchronously: the fake judge answers from this process). */
async function run(command, args, env, failure, exactEnv = false) {
  const child = spawn(command, args, {
    cwd: project,
    env: exactEnv ? env : { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const result = { stdout: '', stderr: '' }
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    result.stdout += chunk
  })
  child.stderr.setEncoding('utf8').on('data', (chunk) => {
    result.stderr += chunk
  })
  const timer = setTimeout(() => child.kill('SIGKILL'), 300_000)
  const status = await new Promise((done, fail) => {
    child.on('error', fail)
    child.on('close', (code, signal) => done(code ?? signal))
  }).finally(() => clearTimeout(timer))
  if (status !== 0) {
    throw new Error(`${failure} (exit ${status}):\n${result.stdout}\n${result.stderr}`)
  }
  return result
}

function expectIn(result, text, what) {
  if (!result.stdout.includes(text)) {
    throw new Error(`${what} does not print "${text}":\n${result.stdout}\n${result.stderr}`)
  }
}
