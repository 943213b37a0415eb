// Load the reference model's TypeScript through Vite's module runner (nothing to compile first).
import { fileURLToPath } from 'node:url'
import { runnerImport } from 'vite'

/** The module examples/reference-model/reference-model.ts. */
export async function loadReferenceModel() {
  const file = fileURLToPath(new URL('./reference-model.ts', import.meta.url))
  const { module } = await runnerImport(file, { configFile: false, logLevel: 'error' })
  return module
}
