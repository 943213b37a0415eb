import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { afterEach, expect, test } from 'vitest'
import { CI_VARIABLES, detectCi } from '../../src/config/detect-ci'

// std-env as Vitest installs it: the detection that rubricate's must agree with.
async function stdEnv(): Promise<{ detectProvider: () => { name: string; ci?: boolean } }> {
  const fromVitest = createRequire(createRequire(import.meta.url).resolve('vitest/package.json'))
  return import(pathToFileURL(fromVitest.resolve('std-env')).href)
}

const saved = { ...process.env }
afterEach(() => {
  for (const name of CI_VARIABLES) delete process.env[name]
  Object.assign(process.env, saved)
})

test('every provider variable names the provider that std-env names, and counts as CI as it does', async () => {
  const { detectProvider } = await stdEnv()
  // The test setup cleared every variable of the table; std-env reads process.env as it is now.
  for (const variable of CI_VARIABLES.filter((name) => name !== 'CI')) {
    process.env[variable] = 'set'
    const theirs = detectProvider()
    const ours = detectCi(process.env)
    delete process.env[variable]
    const theirsCi = theirs.name !== '' && theirs.ci !== false
    expect({ variable, ci: ours.ci }).toEqual({ variable, ci: theirsCi })
    if (theirsCi)
      expect({ variable, provider: ours.provider }).toEqual({ variable, provider: theirs.name })
  }
})

test('CI alone, a provider alone, or both are CI; CI=false or CI=0 wins over a provider; an empty CI is unset', () => {
  expect(detectCi({})).toEqual({ ci: false, provider: undefined, variable: undefined })
  expect(detectCi({ CI: 'true' })).toEqual({ ci: true, provider: undefined, variable: undefined })
  expect(detectCi({ CI: '' })).toEqual({ ci: false, provider: undefined, variable: undefined })
  expect(detectCi({ TEAMCITY_VERSION: '2025.1' })).toEqual({
    ci: true,
    provider: 'teamcity',
    variable: 'TEAMCITY_VERSION',
  })
  expect(detectCi({ CI: '', bamboo_planKey: 'P' })).toMatchObject({ ci: true, provider: 'bamboo' })
  expect(detectCi({ CI: 'false', JENKINS_URL: 'x' }).ci).toBe(false)
  expect(detectCi({ CI: '0', SYSTEM_TEAMFOUNDATIONCOLLECTIONURI: 'x' }).ci).toBe(false)
  expect(detectCi({ CI: 'true', VERCEL: '1' })).toEqual({
    ci: true,
    provider: undefined,
    variable: undefined,
  })
})
