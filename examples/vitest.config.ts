import rubricate from 'rubricate/plugin'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  plugins: [
    rubricate({
      judge: 'openai/gpt-4.1-mini',
      // Every model call (the judge's and the agents') is answered from __cassettes__/, offline;
      // a call with no cassette fails its test instead of going to the network.
      // RUBRICATE_CASSETTES in the environment wins over this: `npm run examples:record`.
      cassettes: { mode: 'replay' },
    }),
  ],
  test: {
    include: ['**/*.test.ts'],
    // The rubric report page: one HTML file, opened in a browser with no network.
    outputFile: { 'rubricate-html': '.rubricate/report.html' },
    // Fails on purpose: `npm run examples:failing` runs it with vitest.failing.config.ts.
    exclude: ['failing/**', '**/node_modules/**'],
  },
})
