import rubricate from 'rubricate/plugin'
import { defineConfig } from 'vitest/config'

// The failing example on its own (`npm run examples:failing`), with its own cassettes, so that
// the main run's summary never counts them as unused.
export default defineConfig({
  plugins: [
    rubricate({
      judge: 'openai/gpt-4.1-mini',
      cassettes: { mode: 'replay', dir: 'failing/__cassettes__' },
    }),
  ],
  test: { include: ['failing/**/*.test.ts'] },
})
