// Runs Vitest on test/fixtures/matchers-cjs, a CommonJS project (Vite loads its vitest.config.ts
// as CommonJS, so rubricate/plugin is required from dist/plugin.cjs) that reaches the package
// through a node_modules/rubricate link made here, as an installed copy would be.
import { existsSync } from 'node:fs'
import { mkdir, symlink } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, expect, test } from 'vitest'
import { failureBlock } from '../support/failure-block'
import { fixturesDir, repoRoot, runVitest } from '../support/run-vitest'

const fixture = join(fixturesDir, 'matchers-cjs')

beforeAll(async () => {
  const link = join(fixture, 'node_modules/rubricate')
  if (!existsSync(link)) {
    await mkdir(join(fixture, 'node_modules'), { recursive: true })
    // Several workers may get here at once; a link that appeared meanwhile is as good.
    await symlink(repoRoot, link, 'dir').catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error
    })
  }
})

test('a CommonJS project loads the plugin in its vitest.config.ts and gets the matchers', async () => {
  const run = await runVitest(fixture, [])
  expect(run.stdout).toContain('Tests  1 failed | 4 passed (5)')
  expect(
    failureBlock(run.stderr, 'verdicts.test.ts > fails an unmet rubric'),
  ).toBe(`Error: expect(output).toSatisfyRubric(criteria)

Rubric not satisfied: 1 of 1 required criteria unmet.

  ✗ [required] Mentions refund
      → It does not.

Output: "hello"`)
  expect(run.exitCode).toBe(1)
})
