import { defineConfig, type Options } from 'tsup'

// Two builds. ESM holds every entry and shares chunks between them, so a worker that loads
// `rubricate/setup` and `rubricate` gets one copy of the core. CJS holds only the entries that a
// CommonJS `vitest.config` may load (Vite loads the config of a non-module package as CommonJS);
// `setup`, `matchers` and `evals` import `vitest`, which cannot be required, so they are ESM only.
const shared = {
  target: 'node20',
  platform: 'node',
  dts: true,
  sourcemap: false,
  outDir: 'dist',
} as const

const config: Options[] = [
  {
    ...shared,
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
  },
  {
    ...shared,
    entry: {
      index: 'src/index.ts',
      testing: 'src/testing/index.ts',
      cassettes: 'src/cassettes/index.ts',
      plugin: 'reporters/plugin.ts',
      reporter: 'reporters/index.ts',
    },
    format: ['cjs'],
    shims: true,
  },
]

export default defineConfig(config) as Options[]
