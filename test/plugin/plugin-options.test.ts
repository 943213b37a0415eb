import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, expect, test } from 'vitest'
import rubricatePlugin, { rubricate } from '../../reporters/plugin'
import { deserializePluginOptions, serializePluginOptions } from '../../src/config/plugin-options'

const context = { root: '/project', runId: 'run-1', updateSnapshots: false }

test('options cross to the workers as plain data, the cassette folder resolved against the root', () => {
  const provided = serializePluginOptions(
    {
      judge: { model: 'gpt-4.1-mini', baseURL: 'http://127.0.0.1:1/v1' },
      cassettes: { mode: 'auto', dir: 'recordings', match: ['/v1/messages', /\/api\/generate$/i] },
      judgeConcurrency: 4,
    },
    context,
  )
  expect(provided).toEqual({
    v: 1,
    judge: { model: 'gpt-4.1-mini', baseURL: 'http://127.0.0.1:1/v1' },
    cassettes: {
      mode: 'auto',
      dir: '/project/recordings',
      match: ['/v1/messages', { source: '\\/api\\/generate$', flags: 'i' }],
    },
    judgeConcurrency: 4,
    runId: 'run-1',
    root: '/project',
    updateSnapshots: false,
  })
  expect(structuredClone(provided)).toEqual(provided)
  expect(JSON.parse(JSON.stringify(provided))).toEqual(provided)
})

test('a worker gets the options back, patterns as RegExps again', () => {
  const config = deserializePluginOptions(
    serializePluginOptions(
      { judge: 'openai/gpt-4.1-mini', cassettes: { match: [/\/v1\/messages$/g] } },
      context,
    ),
  )
  expect(config).toEqual({
    judge: 'openai/gpt-4.1-mini',
    cassettes: { dir: '/project/__cassettes__', match: [/\/v1\/messages$/g] },
  })
})

test('an absolute cassette folder is kept as is', () => {
  expect(
    serializePluginOptions({ cassettes: { dir: '/abs/cassettes' } }, context).cassettes.dir,
  ).toBe('/abs/cassettes')
})

test('a JudgeModel or a redact function in the plugin is a usage error pointing to configureRubricate', () => {
  expect(() =>
    rubricate({ judge: { id: 'mine', complete: async () => ({ text: '' }) } } as never),
  ).toThrowError(
    '[rubricate] rubricate() plugin option "judge" is a JudgeModel, which cannot be passed from vitest.config to the test workers. Set it with configureRubricate({ judge: ... }) in a setup file instead.',
  )
  expect(() =>
    rubricate({ cassettes: { redact: (entry: unknown) => entry } } as never),
  ).toThrowError(
    '[rubricate] rubricate() plugin option "cassettes.redact" is a function, which cannot be passed from vitest.config to the test workers. Set it with configureRubricate({ cassettes: ... }) in a setup file instead.',
  )
})

test('the plugin rejects unknown options and bad values where they are written', () => {
  expect(() => rubricate({ judges: 'x' } as never)).toThrowError(
    '[rubricate] rubricate() plugin got an unknown option "judges". Did you mean "judge"? Known options: "judge", "cassettes", "judgeConcurrency", "maxLiveCalls", "maxCost", "prices", "annotations".',
  )
  expect(() => rubricate({ cassettes: { mode: 'replays' as never } })).toThrowError(
    '[rubricate] rubricate() plugin cassettes.mode is "replays", which is not a cassette mode. Use one of "replay", "auto", "record", "off".',
  )
})

test('the default export is the named one', () => {
  expect(rubricatePlugin).toBe(rubricate)
  expect(rubricate().name).toBe('rubricate')
})

type ConfigHook = (config: {
  test?: { testTimeout?: number; server?: { deps?: { inline?: true | RegExp[] } } }
}) => unknown

// The repository's setup file sets RUBRICATE_CASSETTES=off for every test; these tests decide it.
const hermeticMode = process.env.RUBRICATE_CASSETTES
beforeEach(() => {
  delete process.env.RUBRICATE_CASSETTES
})
afterEach(() => {
  delete process.env.CI
  if (hermeticMode === undefined) delete process.env.RUBRICATE_CASSETTES
  else process.env.RUBRICATE_CASSETTES = hermeticMode
})
const configHook = (plugin: ReturnType<typeof rubricate>) => plugin.config as unknown as ConfigHook

const testPart = (result: unknown) =>
  (result as { test?: { testTimeout?: number; server?: { deps?: { inline?: unknown } } } }).test
const timeoutOf = (result: unknown) => testPart(result)?.testTimeout

test('the test timeout becomes 60 s when judge calls may go live and none is set', () => {
  expect(timeoutOf(configHook(rubricate())({}))).toBe(60_000)
  expect(timeoutOf(configHook(rubricate({ cassettes: { mode: 'record' } }))({ test: {} }))).toBe(
    60_000,
  )
})

test('a test timeout the user set, or a replaying run, keeps the test timeout as it is', () => {
  expect(timeoutOf(configHook(rubricate())({ test: { testTimeout: 1_000 } }))).toBeUndefined()
  expect(timeoutOf(configHook(rubricate({ cassettes: { mode: 'replay' } }))({}))).toBeUndefined()
  process.env.CI = 'true'
  expect(timeoutOf(configHook(rubricate())({}))).toBeUndefined()
  process.env.RUBRICATE_CASSETTES = 'auto'
  expect(timeoutOf(configHook(rubricate())({}))).toBe(60_000)
})

test("the setup file is inlined, so that Vitest runs it before every file a worker shares, and nothing else of rubricate's is", () => {
  const inline = testPart(configHook(rubricate())({}))?.server?.deps?.inline as RegExp[]
  expect(inline).toHaveLength(1)
  const setupFile = fileURLToPath(new URL('../../dist/setup.js', import.meta.url))
  // The plugin under test is the source, whose setup file sits beside it in reporters/.
  const besidePlugin = fileURLToPath(new URL('../../reporters/setup.js', import.meta.url))
  expect(inline[0]?.test(besidePlugin.replaceAll('\\', '/'))).toBe(true)
  expect(inline[0]?.test(setupFile.replaceAll('\\', '/'))).toBe(false)
  expect(inline[0]?.test(`${besidePlugin}x`)).toBe(false)
  // A project that inlines everything already is left as it is.
  expect(
    testPart(configHook(rubricate())({ test: { server: { deps: { inline: true } } } }))?.server,
  ).toBeUndefined()
})

test('cassettes.providerHosts crosses to the workers, and anything but a list of host names is a usage error', () => {
  const provided = serializePluginOptions(
    { cassettes: { providerHosts: ['llm.corp.example'] } },
    context,
  )
  expect(provided.cassettes).toEqual({
    dir: '/project/__cassettes__',
    providerHosts: ['llm.corp.example'],
  })
  expect(deserializePluginOptions(provided).cassettes?.providerHosts).toEqual(['llm.corp.example'])
  expect(() =>
    rubricate({ cassettes: { providerHosts: 'llm.corp.example' as never } }),
  ).toThrowError(
    '[rubricate] rubricate() plugin cassettes.providerHosts is "llm.corp.example", which is not a list of host names. Give host names such as ["llm.internal.example.com", "*.my-gateway.example"].',
  )
})

test('cassettes.blockNetwork crosses to the workers, and anything but a boolean is a usage error', () => {
  const provided = serializePluginOptions({ cassettes: { blockNetwork: true } }, context)
  expect(provided.cassettes).toEqual({ dir: '/project/__cassettes__', blockNetwork: true })
  expect(deserializePluginOptions(provided).cassettes?.blockNetwork).toBe(true)
  expect(() => rubricate({ cassettes: { blockNetwork: 'yes' as never } })).toThrowError(
    '[rubricate] rubricate() plugin cassettes.blockNetwork is "yes", which is not a boolean. Use true or false.',
  )
})
