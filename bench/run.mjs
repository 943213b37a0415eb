// The benchmarks of ARCHITECTURE.md §10. The TypeScript is loaded through Vite's module runner, so nothing
// needs building first (the suite builds dist/ itself through `npm run bench`).
//
//   node bench/run.mjs                  the whole suite: a table, and bench/results.json
//   node bench/run.mjs --quick --out f  the same in a tiny configuration (what `npm test` checks)
//   node bench/run.mjs cassettes [json] one benchmark on its own: its figures as JSON; the optional
//                                       JSON argument is its options, e.g. '{"iterations":200}'
import { createRunnableDevEnvironment, resolveConfig } from 'vite'

const [name, ...rest] = process.argv.slice(2)
const suite = name === undefined || name.startsWith('--')
const file = new URL(`./${suite ? 'suite' : name}.ts`, import.meta.url).pathname

// Like Vite's `runnerImport`, but the runner stays open until the benchmark has finished: the
// library imports `openai` lazily, at its first judge call, through the runner.
const config = await resolveConfig(
  {
    configFile: false,
    envDir: false,
    logLevel: 'error',
    environments: {
      bench: {
        consumer: 'server',
        dev: { moduleRunnerTransform: true },
        resolve: { external: true, mainFields: [], conditions: ['node'] },
      },
    },
  },
  'serve',
)
const environment = createRunnableDevEnvironment('bench', config, {
  runnerOptions: { hmr: { logger: false } },
  hot: false,
})
await environment.init()
try {
  const module = await environment.runner.import(file)
  if (suite) {
    process.exitCode = await module.runSuite(process.argv.slice(2))
  } else {
    const run = Object.values(module).find(
      (value) => typeof value === 'function' && value.name.startsWith('bench'),
    )
    if (!run) throw new Error(`bench/${name}.ts exports no bench...() function.`)
    const options = rest[0] === undefined ? undefined : JSON.parse(rest[0])
    console.log(JSON.stringify(await run(options), null, 2))
  }
} finally {
  await environment.close()
}
