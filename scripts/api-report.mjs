// The public API report: API Extractor reads each entry point's declarations in dist/ and writes
// api/<entry>.api.md, the surface a user can import. `--check` (CI, through npm test) fails when a
// report differs from the committed one, so a change to the surface is a reviewed diff; without it
// the reports are rewritten. Run after `npm run build`.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor'

const root = resolve(import.meta.dirname, '..')
const check = process.argv.includes('--check')
const entries = [
  'index',
  'cassettes',
  'evals',
  'matchers',
  'plugin',
  'reporter',
  'setup',
  'testing',
]
const temp = mkdtempSync(join(tmpdir(), 'rubricate-api-'))

let failed = false
try {
  for (const entry of entries) {
    const config = ExtractorConfig.prepare({
      configObject: {
        projectFolder: root,
        mainEntryPointFilePath: join(root, 'dist', `${entry}.d.ts`),
        compiler: { tsconfigFilePath: join(root, 'tsconfig.json') },
        apiReport: {
          enabled: true,
          reportFileName: entry === 'index' ? 'rubricate' : `rubricate-${entry}`,
          reportFolder: join(root, 'api'),
          reportTempFolder: temp,
        },
        docModel: { enabled: false },
        dtsRollup: { enabled: false },
        tsdocMetadata: { enabled: false },
        messages: {
          // The report is for review: declarations reached only through an export (a chunk's
          // type) are named in it, and release tags and TSDoc syntax are not this project's habit.
          extractorMessageReporting: {
            default: { logLevel: 'none' },
            'ae-missing-release-tag': { logLevel: 'none' },
            'ae-forgotten-export': { logLevel: 'none' },
          },
          tsdocMessageReporting: { default: { logLevel: 'none' } },
          compilerMessageReporting: { default: { logLevel: 'warning' } },
        },
      },
      configObjectFullPath: join(root, 'api', 'api-extractor.json'),
      packageJsonFullPath: join(root, 'package.json'),
    })
    const result = Extractor.invoke(config, { localBuild: !check, showVerboseMessages: false })
    if (!result.succeeded || (check && result.apiReportChanged)) {
      failed = true
      console.error(
        `[rubricate] The API report of "${entry}" differs from api/${config.reportFilePath.split('/').pop()}. ` +
          'The public surface changed: review the change, then run `npm run api` and commit the report.',
      )
    }
  }
} finally {
  rmSync(temp, { recursive: true, force: true })
}
process.exitCode = failed ? 1 : 0
