import { rejectUnknownKeys } from '../src/config/known-keys'
import { type CassetteMode, parseCassetteMode } from '../src/config/resolve-config'
import { UsageError } from '../src/errors'
import { messages } from '../src/messages'
import type { ScorerLike } from './types'

/** Reject a non-object or an unknown key, so a typo is not silently ignored. @internal */
export function checkOptions(
  matcher: string,
  options: unknown,
  known: readonly string[],
): Record<string, unknown> {
  if (options === undefined) return {}
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new UsageError(messages.configNotObject(`${matcher}()`, options))
  }
  rejectUnknownKeys(`${matcher}() options`, options, known)
  return options as Record<string, unknown>
}

/** The `input` of a matcher's options, for its record; none when the options are no object. @internal */
export function inputOption(options: unknown): unknown {
  return typeof options === 'object' && options !== null
    ? (options as { input?: unknown }).input
    : undefined
}

/** The call-site cassette mode, checked. @internal */
export function cassetteOption(matcher: string, value: unknown): CassetteMode | undefined {
  return value === undefined
    ? undefined
    : parseCassetteMode(value, `${matcher}() option "cassettes"`)
}

/** True for anything with a `run()` method. @internal */
export function isScorer(value: unknown): value is ScorerLike {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { run?: unknown }).run === 'function'
  )
}

/** A scorer's name for messages: its `id`, else its `name`, else `scorer`. @internal */
export function scorerName(scorer: ScorerLike): string {
  const { id, name } = scorer as { id?: unknown; name?: unknown }
  if (typeof id === 'string' && id !== '') return id
  if (typeof name === 'string' && name !== '') return name
  return 'scorer'
}

/** Turn a scorer result's `noRubric` and `notScorable` into usage errors. @internal */
export function rejectUnscored(
  matcher: string,
  id: string,
  result: { noRubric?: unknown; notScorable?: unknown },
): void {
  if (result.noRubric) throw new UsageError(messages.matcherNoRubric(matcher, id))
  if (result.notScorable) {
    const { step, reason } = result.notScorable as { step?: string; reason?: string }
    throw new UsageError(messages.matcherNotScorable(matcher, id, step, reason))
  }
}

/**
 * The reference answer and context of a matcher's options, as a scorer run's `groundTruth` and
 * `additionalContext.context`. `expected` (evalite's name) and `groundTruth` (Mastra's) are the
 * same option; both at once is a usage error.
 * @internal
 */
export function judgeReferences(
  matcher: string,
  options: Record<string, unknown>,
): { groundTruth?: unknown; additionalContext?: Record<string, unknown> } {
  if (options.groundTruth !== undefined && options.expected !== undefined) {
    throw new UsageError(messages.groundTruthAndExpected(matcher))
  }
  const out: { groundTruth?: unknown; additionalContext?: Record<string, unknown> } = {}
  const groundTruth = options.groundTruth ?? options.expected
  if (groundTruth !== undefined) out.groundTruth = groundTruth
  if (options.context !== undefined) out.additionalContext = { context: options.context }
  return out
}
