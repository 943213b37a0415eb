import { afterEach, expect, test } from 'vitest'
import { configureRubricate, resetRubricateConfig } from '../../src'
import { modeReason } from '../../src/cassettes/exchange/cassette-miss'
import { defaultCassetteMode } from '../../src/config/resolve-config'
import { currentRuntime, resolveJudge, setPluginConfig } from '../../src/runtime/runtime'
import { runtimeState } from '../../src/runtime/state'
import { linked } from '../support/error-page'

afterEach(() => {
  resetRubricateConfig()
  setPluginConfig({})
  runtimeState().run.updateSnapshots = false
})

test('the judge comes from the plugin when nothing stronger sets one', () => {
  setPluginConfig({ judge: 'openai/from-plugin' })
  expect(resolveJudge(undefined, {})).toBe('openai/from-plugin')
})

test('configureRubricate wins over the plugin', () => {
  setPluginConfig({ judge: 'openai/from-plugin' })
  configureRubricate({ judge: 'openai/from-setup' })
  expect(resolveJudge(undefined, {})).toBe('openai/from-setup')
})

test('the environment wins over configureRubricate', () => {
  configureRubricate({ judge: 'openai/from-setup' })
  expect(resolveJudge(undefined, { RUBRICATE_JUDGE: 'openai/from-env' })).toBe('openai/from-env')
})

test('the call site wins over the environment', () => {
  expect(resolveJudge('openai/from-call', { RUBRICATE_JUDGE: 'openai/from-env' })).toBe(
    'openai/from-call',
  )
})

test('with no judge anywhere, RUBRICATE_NO_JUDGE names every place to set one', () => {
  expect(() => resolveJudge(undefined, {})).toThrowError(
    expect.objectContaining({
      code: 'RUBRICATE_NO_JUDGE',
      message: linked(
        `[rubricate] No judge model is configured, so this rubric cannot be judged.
Set one in any of these places (strongest first):
  - the call: toSatisfyRubric(criteria, { judge: 'openai/gpt-4.1-mini' }), createRubricScorer({ judge }) or createScorer({ judge: { model } })
  - the environment: RUBRICATE_JUDGE=openai/gpt-4.1-mini
  - a setup file: configureRubricate({ judge: 'openai/gpt-4.1-mini' })
  - vitest.config: plugins: [rubricate({ judge: 'openai/gpt-4.1-mini' })]`,
        'no-judge',
      ),
    }),
  )
})

test('cassette mode follows the same precedence, field by field', () => {
  setPluginConfig({ cassettes: { mode: 'off', dir: '/plugin/dir' } })
  expect(currentRuntime().config({}, {}).cassettes).toMatchObject({
    mode: 'off',
    modeSource: 'plugin',
    dir: '/plugin/dir',
  })
  configureRubricate({ cassettes: { mode: 'record' } })
  expect(currentRuntime().config({}, {}).cassettes).toMatchObject({
    mode: 'record',
    modeSource: 'configure',
    dir: '/plugin/dir',
  })
  expect(currentRuntime().config({}, { RUBRICATE_CASSETTES: 'auto' }).cassettes.mode).toBe('auto')
  expect(
    currentRuntime().config({ cassettes: 'off' }, { RUBRICATE_CASSETTES: 'auto' }).cassettes,
  ).toMatchObject({
    mode: 'off',
    modeSource: 'call',
  })
})

test('the default mode is record under -u (also on CI), replay on CI, auto otherwise', () => {
  expect(defaultCassetteMode({ CI: 'true' }, false)).toBe('replay')
  // Vitest's rule for snapshots: an explicit -u updates, also on CI.
  expect(defaultCassetteMode({ CI: '1' }, true)).toBe('record')
  expect(defaultCassetteMode({ JENKINS_URL: 'https://jenkins.example/' }, true)).toBe('record')
  expect(defaultCassetteMode({ CI: 'false' }, false)).toBe('auto')
  expect(defaultCassetteMode({ CI: '0' }, false)).toBe('auto')
  expect(defaultCassetteMode({}, true)).toBe('record')
  expect(defaultCassetteMode({}, false)).toBe('auto')
  runtimeState().run.updateSnapshots = true
  expect(currentRuntime().config({}, {}).cassettes).toMatchObject({
    mode: 'record',
    modeSource: 'default',
  })
})

test('CI providers that set no CI variable replay too, as Vitest counts them as CI; CI=false or 0 opts out', () => {
  for (const env of [
    { JENKINS_URL: 'https://jenkins.example/' },
    { SYSTEM_TEAMFOUNDATIONCOLLECTIONURI: 'https://dev.azure.example/org/' },
    { TEAMCITY_VERSION: '2025.1' },
    { bamboo_planKey: 'PROJ-PLAN' },
  ]) {
    expect(defaultCassetteMode(env, false)).toBe('replay')
    expect(defaultCassetteMode({ ...env, CI: 'false' }, false)).toBe('auto')
    expect(defaultCassetteMode({ ...env, CI: '0' }, false)).toBe('auto')
  }
  // A hosting platform's own variable (a Vercel preview build) is not CI, as for Vitest.
  expect(defaultCassetteMode({ VERCEL: '1' }, false)).toBe('auto')
})

test('the miss message names the detected CI provider as the reason for replay', () => {
  const reason = (env: NodeJS.ProcessEnv) => modeReason(currentRuntime().config({}, env))
  expect(reason({ CI: 'true' })).toBe('CI is set')
  expect(reason({ JENKINS_URL: 'https://jenkins.example/' })).toBe(
    'CI detected: jenkins, from JENKINS_URL',
  )
  expect(reason({ CI: 'true', GITHUB_ACTIONS: 'true' })).toBe(
    'CI detected: github_actions, from GITHUB_ACTIONS',
  )
  runtimeState().run.updateSnapshots = true
  expect(reason({ TEAMCITY_VERSION: '2025.1' })).toBe('vitest runs with -u')
})

test('an invalid RUBRICATE_CASSETTES value is an error that lists the four modes', () => {
  expect(() => currentRuntime().config({}, { RUBRICATE_CASSETTES: 'replay-only' })).toThrowError(
    '[rubricate] RUBRICATE_CASSETTES is "replay-only", which is not a cassette mode. Use one of "replay", "auto", "record", "off".',
  )
})

test('configureRubricate rejects unknown options and bad values, and keeps what was set before', () => {
  configureRubricate({ judge: 'openai/kept' })
  expect(() => configureRubricate({ juge: 'x' } as never)).toThrowError(
    '[rubricate] configureRubricate() got an unknown option "juge". Did you mean "judge"? Known options: "judge", "cassettes", "judgeConcurrency", "maxLiveCalls", "maxCost", "prices", "annotations".',
  )
  expect(() => configureRubricate({ cassettes: { mode: 'sometimes' as never } })).toThrowError(
    /not a cassette mode/,
  )
  expect(() => configureRubricate({ judgeConcurrency: 0 })).toThrowError(
    /must be a positive integer/,
  )
  expect(resolveJudge(undefined, {})).toBe('openai/kept')
})

test('relative cassette folders resolve against the project root', () => {
  runtimeState().run.root = '/project'
  try {
    configureRubricate({ cassettes: { dir: 'fixtures/cassettes' } })
    expect(currentRuntime().config({}, {}).cassettes.dir).toBe('/project/fixtures/cassettes')
  } finally {
    runtimeState().run.root = undefined
  }
})

test('the runtime lives on globalThis, so a second copy of the module sees the same configuration', () => {
  configureRubricate({ judge: 'openai/shared' })
  const runtime = (globalThis as Record<symbol, { layers: { configured: { judge?: unknown } } }>)[
    Symbol.for('rubricate.runtime')
  ]
  expect(runtime).toBe(currentRuntime())
  expect(runtime?.layers.configured.judge).toBe('openai/shared')
})
