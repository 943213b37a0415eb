import { defineConfig, type Options } from 'tsup'

// One ESM build of every entry, with shared chunks, so that a worker that loads `rubricate/setup`
// and `rubricate` gets one copy of the core; its declarations are emitted once, beside it. There is
// no CommonJS build: `require()` of an ES module works on every Node the package supports
// (>= 20.19), and the CommonJS projects of test/package/pack.test.ts and test/fixtures/*-cjs (a
// vitest.config loaded as CommonJS, `require('rubricate/plugin')` in a .cts config) load this one.
const config: Options = {
  entry: {
    index: 'src/index.ts',
    testing: 'src/testing/index.ts',
    cassettes: 'src/cassettes/index.ts',
    plugin: 'reporters/plugin.ts',
    reporter: 'reporters/index.ts',
    setup: 'matchers/setup.ts',
    matchers: 'matchers/index.ts',
    evals: 'evals/index.ts',
    cli: 'src/cli/cli.ts',
  },
  format: ['esm'],
  splitting: true,
  target: 'node20',
  platform: 'node',
  dts: true,
  sourcemap: false,
  outDir: 'dist',
}

export default defineConfig(config) as Options
