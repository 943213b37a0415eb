// Re-record every cassette of the examples against the reference model: `npm run examples:record`.
// Starts the reference model, points OPENAI_BASE_URL and the other providers' variables at it,
// then runs the examples and the failing example with RUBRICATE_CASSETTES=record. The cassettes are re-recorded in place: an unchanged
// reply leaves its file untouched, so against the same model `git status` stays clean, and a
// changed one shows as its own file. Entries no test uses any more: `rubricate cassettes prune`.
// To record against a real model instead, see "Re-record the examples" in the README.
import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { loadReferenceModel } from './load.mjs'

const examples = resolve(import.meta.dirname, '..')
const vitest = join(
  dirname(createRequire(import.meta.url).resolve('vitest/package.json')),
  'vitest.mjs',
)

const { startReferenceModel } = await loadReferenceModel()
const server = await startReferenceModel()
console.log(`Recording against the reference model at ${server.baseURL}\n`)
const env = { ...process.env, ...server.env, RUBRICATE_CASSETTES: 'record' }
let failed = false
try {
  const main = await vitestRun([])
  if (main !== 0) {
    failed = true
    console.error(`\nThe examples failed while recording (exit code ${main}).`)
  }
  // The failing example fails by design: exit code 1 is what it should give.
  const failing = await vitestRun(['--config', 'vitest.failing.config.ts'])
  if (failing !== 1) {
    failed = true
    console.error(`\nThe failing example gave exit code ${failing} while recording; expected 1.`)
  }
} finally {
  await server.close()
}
if (failed) process.exit(1)
console.log(
  `\nRecorded: examples/__cassettes__ and examples/failing/__cassettes__. Review and commit them.`,
)

// Async: the reference model answers from this process while Vitest runs.
function vitestRun(args) {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [vitest, 'run', ...args], {
      cwd: examples,
      env,
      stdio: 'inherit',
    })
    child.on('error', fail)
    child.on('close', (code) => done(code))
  })
}
