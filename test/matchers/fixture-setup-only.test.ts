// Runs Vitest on test/fixtures/setup-only: no plugin, `setupFiles: ['rubricate/setup']` and
// `reporters: ['default', 'rubricate/reporter']` by hand. The cassette mode follows CI and `-u` there too.
import { readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { runVitest } from '../support/run-vitest'

async function cassetteMode(args: string[], ci: boolean): Promise<string | undefined> {
  const metaFile = join(tmpdir(), `rubricate-setup-only-${process.pid}-${args.join('')}-${ci}.json`)
  const run = await runVitest('setup-only', args, { ci, env: { META_OUTPUT: metaFile } })
  expect(run.exitCode).toBe(0)
  const report = JSON.parse(await readFile(metaFile, 'utf8'))
  await rm(metaFile, { force: true })
  return report['plain.test.ts']?.meta.rubricateCassettes?.mode
}

test('without the plugin the matchers work, and the mode is auto, replay on CI, record under -u', async () => {
  expect(await cassetteMode([], false)).toBe('auto')
  expect(await cassetteMode([], true)).toBe('replay')
  expect(await cassetteMode(['-u'], false)).toBe('record')
})
