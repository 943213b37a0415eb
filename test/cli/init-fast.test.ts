import ts from 'typescript'
import { expect, test } from 'vitest'
import { addPlugin } from '../../src/cli/config-edit'
import {
  addFastProjects,
  FAST_ANNOTATIONS_NOTE,
  FAST_FILES,
  fastProjectsLines,
  withFastProjects,
} from '../../src/cli/init-fast'
import { createdConfig } from '../../src/cli/init-project'

const PLAIN = `import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: { environment: 'node' },
})
`

test('init --fast adds the two projects inside an existing test block, the rest of it kept', () => {
  const edited = addFastProjects(PLAIN, ts) as string
  expect(edited).toBe(
    `import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
${fastProjectsLines().join('\n')} environment: 'node' },
})
`,
  )
})

test('init --fast makes a test block after the plugins of a config that has none', () => {
  const withPlugin = addPlugin(
    ts,
    `import { defineConfig } from 'vitest/config'\n\nexport default defineConfig({})\n`,
    'vitest.config.ts',
    "rubricate({ judge: 'openai/gpt-4.1-mini' })",
  ) as string
  const edited = addFastProjects(withPlugin, ts) as string
  expect(edited).toContain(
    `  plugins: [rubricate({ judge: 'openai/gpt-4.1-mini' })],\n  test: {\n    projects: [`,
  )
  expect(edited).toContain(`include: ['${FAST_FILES}'], isolate: false, pool: 'threads'`)
  expect(edited.endsWith('  },\n})\n')).toBe(true)
  // A second run changes nothing.
  expect(addFastProjects(edited, ts)).toEqual({
    action: 'unchanged',
    detail: 'the fast projects are already there',
  })
})

test('init --fast refuses a config with test.projects already, with the lines to add', () => {
  const refused = addFastProjects(
    `export default defineConfig({ test: { projects: ['packages/*'] } })\n`,
    ts,
  )
  expect(refused).toMatchObject({ action: 'refused' })
  const { detail } = refused as { detail: string }
  expect(detail).toContain('it has "test.projects" already')
  expect(detail).toContain(fastProjectsLines('  ').join('\n'))
})

test('init --fast refuses a config that sets include, which a project extending it would add to', () => {
  const refused = addFastProjects(
    `export default defineConfig({ test: { include: ['src/**/*.test.ts'] } })\n`,
    ts,
  )
  expect((refused as { detail: string }).detail).toMatch(
    /^it sets "include", and a project that extends the config adds to that list rather than replacing it: move "include" into the "unit" project below/,
  )
})

test('init --fast refuses a config that is not one defineConfig object', () => {
  const refused = addFastProjects(
    `export default defineConfig(() => ({ test: {} }))\nexport const other = {}\n`,
    ts,
  )
  expect(refused).toMatchObject({ action: 'refused' })
})

test('init --fast never edits a comment or a string that looks like a test block, and keeps CRLF', () => {
  const config = [
    "import { defineConfig } from 'vitest/config'",
    '// test: { is what the block looks like',
    'export default defineConfig({',
    "  define: { note: 'test: {' },",
    "  test: { environment: 'node' },",
    '})',
    '',
  ].join('\r\n')
  const edited = addFastProjects(config, ts) as string
  expect(edited).toContain('// test: { is what the block looks like\r\n')
  expect(edited).toContain("define: { note: 'test: {' },\r\n")
  expect(edited).toContain(`  test: {\r\n${fastProjectsLines().join('\r\n')}`)
  expect(edited.replaceAll('\r\n', '')).not.toContain('\n')
})

test('init --fast refuses a config that does not parse', () => {
  const refused = addFastProjects('export default defineConfig({ test: { ', ts)
  expect(refused).toMatchObject({ action: 'refused' })
  expect((refused as { detail: string }).detail).toMatch(/^it does not parse \(line 1: /)
})

test("init --fast writes the plugin with annotations: 'failures'; a plugin call of the user's is left as it is, with a note", () => {
  expect(createdConfig('openai/gpt-4.1-mini', true)).toContain(
    "plugins: [rubricate({ judge: 'openai/gpt-4.1-mini', annotations: 'failures' })],",
  )
  expect(createdConfig('openai/gpt-4.1-mini')).toContain(
    "plugins: [rubricate({ judge: 'openai/gpt-4.1-mini' })],",
  )
  const users = `import rubricate from 'rubricate/plugin'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  plugins: [rubricate({ judge: 'openai/gpt-4.1' })],
})
`
  const unchanged = { file: 'vitest.config.ts', action: 'unchanged' as const, detail: 'there' }
  const step = withFastProjects(unchanged, users, ts)
  expect(step.action).toBe('updated')
  expect(step.text).toContain("rubricate({ judge: 'openai/gpt-4.1' })")
  expect(step.note).toBe(FAST_ANNOTATIONS_NOTE)
  const chosen = users.replace("'openai/gpt-4.1'", "'openai/gpt-4.1', annotations: 'all'")
  expect(withFastProjects(unchanged, chosen, ts).note).toBeUndefined()
  // Only the code counts: a comment or a string that names the option chooses nothing.
  const mentioned = users.replace(
    '  plugins:',
    "  // annotations: 'failures' would be faster\n  plugins:",
  )
  expect(withFastProjects(unchanged, mentioned, ts).note).toBe(FAST_ANNOTATIONS_NOTE)
})
