/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url'
import type { Vite } from 'vitest/node'
import type { RubricateConfig } from '../src/config'

/** Options of the Vitest plugin: what `configureRubricate` takes, minus what cannot cross processes. */
export type RubricatePluginOptions = Omit<RubricateConfig, 'judge'> & {
  judge?: Exclude<RubricateConfig['judge'], { complete: unknown }> | undefined
}

const SETUP_FILE = fileURLToPath(new URL('./setup.js', import.meta.url))

/**
 * The rubricate Vitest plugin: puts `rubricate/setup` first in `setupFiles` and passes its options
 * to every worker.
 *
 * @example
 * // vitest.config.ts
 * export default defineConfig({ plugins: [rubricate({ judge: 'openai/gpt-4.1-mini' })] })
 */
export function rubricate(options: RubricatePluginOptions = {}): Vite.Plugin {
  return {
    name: 'rubricate',
    configureVitest({ project }) {
      const setupFiles = project.config.setupFiles
      if (!setupFiles.includes(SETUP_FILE)) setupFiles.unshift(SETUP_FILE)
      void options
    },
  }
}

export default rubricate
