import { currentCallContext } from '../call-context'
import type { JudgeModel } from '../records'

// PLACEHOLDER until the cassette store lands (issue 5): every call goes live and is reported as
// such. The contract below is what the judge relies on; the cassette work replaces the bodies.

/**
 * The `fetch` that the judge's OpenAI client is built with. It serves the current call from the
 * cassette store or makes it live, as the mode of the current call context allows, and reports
 * every HTTP exchange (SDK retries included) to `currentCallContext().onExchange`.
 * @internal
 */
export const judgeFetch: typeof fetch = async (input, init) => {
  const response = await globalThis.fetch(input, init)
  currentCallContext().onExchange?.({ source: 'live' })
  return response
}

/**
 * Wrap a custom judge model so that its replies are recorded to and replayed from cassettes,
 * keyed on its `JudgeRequest`, like the replies of an OpenAI-compatible judge.
 *
 * @example
 * configureRubricate({ judge: cached(myJudgeModel) })
 */
export function cached(model: JudgeModel): JudgeModel {
  return {
    id: model.id,
    async complete(request, options) {
      const reply = await model.complete(request, options)
      currentCallContext().onExchange?.({ source: 'live' })
      return reply
    },
  }
}
