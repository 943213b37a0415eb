import { currentCallContext } from '../call-context'
import type { JudgeModel } from '../records'

// PLACEHOLDER until the cassette store lands (issue 5): every call goes live and is reported as
// such. The contract below is what the judge relies on; the cassette work replaces the bodies.

/**
 * Marks a judge model that serves its own calls from cassettes (or needs none) and reports its
 * own exchanges, so the judge does not wrap it in {@link cached} a second time.
 * @internal
 */
export const CASSETTE_AWARE: unique symbol = Symbol.for('rubricate.cassetteAware') as never

/** True when `model` came from {@link cached} (or otherwise handles cassettes itself). @internal */
export function isCassetteAware(model: JudgeModel): boolean {
  return (model as JudgeModel & { [CASSETTE_AWARE]?: unknown })[CASSETTE_AWARE] === true
}

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
 * keyed on its `JudgeRequest`, like the replies of an OpenAI-compatible judge. The judge wraps
 * every custom model automatically; wrapping twice has no further effect.
 *
 * @example
 * configureRubricate({ judge: cached(myJudgeModel) })
 */
export function cached(model: JudgeModel): JudgeModel {
  if (isCassetteAware(model)) return model
  return {
    id: model.id,
    [CASSETTE_AWARE]: true,
    async complete(request, options) {
      const reply = await model.complete(request, options)
      currentCallContext().onExchange?.({ source: 'live' })
      return reply
    },
  } as JudgeModel
}
