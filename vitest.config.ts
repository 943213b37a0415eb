import { defineConfig, type ViteUserConfig } from 'vitest/config'

const config: ViteUserConfig = defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/fixtures/**', '**/node_modules/**'],
    setupFiles: ['test/support/hermetic.ts'],
    // Many tests run Vitest or npm in a child process, some several times in one test (record,
    // replay, re-record). On CI's shared 2-core machines such a test took 14 s quiet and 20.01 s
    // loaded (node22-msw2 lane), so 20 s failed a correct test. The children carry their own kill
    // timers (run-child.ts), so a hung child still ends its test with what it printed.
    testTimeout: 60_000,
  },
})

export default config
