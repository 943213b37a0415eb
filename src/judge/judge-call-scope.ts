import type { CassetteMode, ResolvedConfig } from '../config/resolve-config'
import type { TestIdentity } from '../records/records'
import { currentCallContext, type ExchangeEvent } from '../runtime/call-context'
import { currentRuntime } from '../runtime/runtime'

/**
 * What one judge call tells its transport, the cassette bridge: made where the call starts
 * (`runJudgeCall`, `embedTexts`, a `cached()` model called on its own) and passed down as an
 * argument, so every field a transport reads shows in a signature (ARCHITECTURE.md §12).
 * @internal
 */
export interface JudgeCallScope {
  /** The test the call belongs to: named in cassette misses and stored as `recordedBy`. */
  test: TestIdentity | undefined
  /** The `describeEval` trial (from 1) when a row runs several: part of the cassette key. */
  trial: number | undefined
  /**
   * The configuration of the call, resolved once where it starts, with the cassette mode chosen
   * at the call site (`{ cassettes: 'off' }`) over the configuration's: every request of the call
   * (its retries too) is served, limited and counted under the same one.
   */
  config: ResolvedConfig
  /** The version of the prompt template that produced the request, stored in its entry. */
  promptVersion: string | undefined
  /** Told about every HTTP exchange of the call, its retries included. */
  onExchange(event: ExchangeEvent): void
  /** Told each time the call sends a request live, as it is sent: retries and failures included. */
  onLiveRequest(): void
}

/** The parts of a {@link JudgeCallScope} its maker chooses. @internal */
export type JudgeCallChoices = Partial<
  Pick<JudgeCallScope, 'promptVersion' | 'onExchange' | 'onLiveRequest' | 'test'> & {
    /** The cassette mode chosen at the call site; unset: the configuration's. */
    cassetteMode: CassetteMode | undefined
  }
>

/**
 * A judge call's scope: the test its edge named (a matcher's), else the running test, and its
 * trial (the ambient part, which Vitest hands no call), and what the maker chose. @internal
 */
export function judgeCallScope(choices: JudgeCallChoices = {}): JudgeCallScope {
  const context = currentCallContext()
  return {
    test: choices.test ?? context.test,
    trial: context.trial,
    config: currentRuntime().config({ cassettes: choices.cassetteMode }),
    promptVersion: choices.promptVersion,
    onExchange: choices.onExchange ?? ignore,
    onLiveRequest: choices.onLiveRequest ?? ignore,
  }
}

function ignore(): void {}

/**
 * The signal of one judge call: the call context's (the test's, which fires on timeout) combined
 * with an explicit one. Never undefined, so the transports need no special case.
 * @internal
 */
export function callSignal(explicit?: AbortSignal | undefined): AbortSignal {
  const inContext = currentCallContext().signal
  if (inContext === undefined) return explicit ?? new AbortController().signal
  if (explicit === undefined || explicit === inContext) return inContext
  return AbortSignal.any([inContext, explicit])
}
