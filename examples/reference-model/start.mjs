// Start the reference model on its own: `npm run examples:reference-model`. Prints the variables
// that point each client at it (OPENAI_BASE_URL...), and serves until stopped (Ctrl-C).
import { loadReferenceModel } from './load.mjs'

const { startReferenceModel } = await loadReferenceModel()
const server = await startReferenceModel()
const variables = Object.entries(server.env)
  .map(([name, value]) => `  ${name}=${value}`)
  .join('\n')
console.log(`The reference model is listening. Point your clients at it:

${variables}

Stop it with Ctrl-C.`)
const stop = async () => {
  await server.close()
  process.exit(0)
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
