// Run a benchmark of this folder on its own: `node bench/run.mjs cassettes`. The TypeScript is
// loaded through Vite's module runner, so nothing needs building first.
import { runnerImport } from 'vite'

const name = process.argv[2] ?? 'cassettes'
const { module } = await runnerImport(new URL(`./${name}.ts`, import.meta.url).pathname, {
  configFile: false,
  logLevel: 'error',
})
const run = Object.values(module).find(
  (value) => typeof value === 'function' && value.name.startsWith('bench'),
)
if (!run) throw new Error(`bench/${name}.ts exports no bench...() function.`)
console.log(JSON.stringify(await run(), null, 2))
