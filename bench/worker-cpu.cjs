// Preloaded into every Node process of a measured `vitest run` (NODE_OPTIONS=--require, set by
// bench/suite-project.ts): at exit, each appends "main <ms>" or "worker <ms>" (its own CPU, user +
// system) to the file RUBRICATE_BENCH_CPU_FILE names. One worker runs one test file (Vitest
// isolates each file in a fresh fork), so the workers' median is what one test file costs, measured
// rather than fitted (ARCHITECTURE.md §10). Vitest ends a fork with SIGTERM, which skips 'exit'
// handlers: the handler below exits instead, as the signal would have.
const { appendFileSync } = require('node:fs')

const file = process.env.RUBRICATE_BENCH_CPU_FILE
if (file) {
  const role = process.argv.some((arg) => /vitest\.mjs$/.test(arg)) ? 'main' : 'worker'
  process.on('exit', () => {
    const { user, system } = process.cpuUsage()
    appendFileSync(file, `${role} ${((user + system) / 1000).toFixed(1)}\n`)
  })
  if (role === 'worker') process.once('SIGTERM', () => process.exit())
}
