import { defineConfig, type ViteUserConfig } from 'vitest/config'

const config: ViteUserConfig = defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/fixtures/**', '**/node_modules/**'],
    setupFiles: ['test/support/hermetic.ts'],
    testTimeout: 20_000,
  },
})

export default config
