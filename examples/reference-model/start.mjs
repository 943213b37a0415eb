// Start the reference model on its own: `npm run examples:reference-model`. Prints the base URL
// to point OPENAI_BASE_URL at, and serves until stopped (Ctrl-C).
import { loadReferenceModel } from './load.mjs'

const { startReferenceModel } = await loadReferenceModel()
const server = await startReferenceModel()
console.log(`The reference model is listening. Point your OpenAI client at it:

  OPENAI_BASE_URL=${server.baseURL}

Stop it with Ctrl-C.`)
const stop = async () => {
  await server.close()
  process.exit(0)
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
