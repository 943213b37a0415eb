// rubricate's lines are coloured when Vitest's are: the same rule as tinyrainbow's, which Vitest
// prints with. Before, a piped run (no terminal) got Vitest's colours and rubricate's plain text.
import { isSupported } from 'tinyrainbow'
import { afterEach, expect, test, vi } from 'vitest'
import { colorsFor, plain } from '../../reporters/figures'

afterEach(() => {
  vi.unstubAllEnvs()
})

const cases: Record<string, string | undefined>[] = [
  {},
  { NO_COLOR: '1' },
  { FORCE_COLOR: '1' },
  { NO_COLOR: '1', FORCE_COLOR: '1' },
  { CI: 'true' },
  { FORCE_TTY: 'false' },
  { FORCE_TTY: 'false', CI: 'true' },
  { TERM: 'dumb' },
  { TERM: 'dumb', FORCE_COLOR: '0' },
]

test.for(cases)('colours agree with Vitest (tinyrainbow) for %o', (env) => {
  for (const name of ['NO_COLOR', 'FORCE_COLOR', 'CI', 'FORCE_TTY', 'TERM', 'GITHUB_ACTIONS']) {
    vi.stubEnv(name, undefined)
  }
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value)
  const coloured = colorsFor(process.env, process.argv, 'linux') !== plain
  expect(coloured).toBe(isSupported())
})

test('output that is not a terminal is coloured unless told otherwise, as Vitest colours it', () => {
  expect(colorsFor({}, [], 'linux').green('ok')).toBe('\u001b[32mok\u001b[39m')
  expect(colorsFor({ NO_COLOR: '' }, [], 'linux')).toBe(plain)
  expect(colorsFor({}, ['--no-color'], 'linux')).toBe(plain)
})
