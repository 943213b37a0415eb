// Runs before every test file of this repository: the tests must not depend on the machine's
// environment, and must never reach an address outside loopback.
import './loopback-guard.mjs'
import { afterAll } from 'vitest'
import { CI_VARIABLES } from '../../src/config/detect-ci'
import { removeTempDirs } from './temp-dir'

afterAll(removeTempDirs)

for (const name of Object.keys(process.env)) {
  if (
    // CI_VARIABLES: `CI` and the variables of CI providers (JENKINS_URL...), which make the
    // default cassette mode replay as `CI` does.
    CI_VARIABLES.includes(name) ||
    name.startsWith('RUBRICATE_') ||
    name.startsWith('OPENAI_') ||
    name === 'GITHUB_STEP_SUMMARY'
  ) {
    delete process.env[name]
  }
}

// The project's own tests reach the judge live (loopback fakes) unless a test chooses cassettes:
// under the default mode (`auto`) every judge test would record into __cassettes__/ at the
// repository root, and a repeated request would be replayed instead of reaching its fake server.
// An environment variable, because tests replace the plugin options and reset configureRubricate;
// the cassette tests remove it (test/cassettes/support.ts).
process.env.RUBRICATE_CASSETTES = 'off'
