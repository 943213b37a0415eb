import { rejectUnknownKeys } from '../config/known-keys'
import { JudgeRequestError } from '../errors'
import type { JudgeTextProcessor } from './processors'

/** Options of {@link StreamErrorRetryProcessor}, as Mastra documents them. */
export interface RetryProcessorOptions {
  /** Retries this processor asks for, per request. Default `2`. */
  maxRetries?: number | undefined
  /** Longest wait between two attempts, in milliseconds. Default `30000`. */
  maxRetryAfterMs?: number | undefined
  /** The wait before retry `retryCount + 1`. Default: `1000 * 2 ** retryCount`, capped by `maxRetryAfterMs`. */
  delayMs?: ((context: { retryCount: number }) => number) | undefined
  /** Errors to retry whatever their kind, e.g. `(e) => /ECONNRESET/.test(String(e))`. */
  matchers?: ((error: unknown) => boolean)[] | undefined
  /** Retry errors of no known kind (a custom model's own failures). Default `false`. */
  retryUnknownErrors?: boolean | undefined
}

const KEYS = ['maxRetries', 'maxRetryAfterMs', 'delayMs', 'matchers', 'retryUnknownErrors']
const TRANSIENT = new Set([408, 409, 425, 429])
const CONTEXT_LENGTH = /context[ _-]?length|maximum context|too many tokens|context window/i

/**
 * An error processor that retries a failed judge request, equivalent to Mastra's
 * `StreamErrorRetryProcessor`: rate limits (429), timeouts (408), 5xx and lost connections are
 * retried; authentication, bad-request and context-length errors fail at once unless a
 * `matchers` entry names them. Set `judge.maxProcessorRetries` to the same `maxRetries`.
 *
 * @example
 * createScorer({ id: 'quality', description: 'Quality', judge: { errorProcessors: [new StreamErrorRetryProcessor({ maxRetries: 2 })], maxProcessorRetries: 2 } })
 */
export class StreamErrorRetryProcessor implements JudgeTextProcessor {
  readonly id = 'stream-error-retry'
  readonly #options: RetryProcessorOptions

  /** See {@link RetryProcessorOptions} for the defaults. */
  constructor(options: RetryProcessorOptions = {}) {
    rejectUnknownKeys('StreamErrorRetryProcessor()', options, KEYS)
    this.#options = options
  }

  /** Retry when the error is transient (or matched) and the budget allows it. */
  processAPIError({ error, retryCount }: { error: unknown; retryCount: number }): {
    retry: boolean
    delayMs?: number | undefined
  } {
    const { maxRetries = 2, maxRetryAfterMs = 30_000, delayMs, matchers = [] } = this.#options
    if (retryCount >= maxRetries) return { retry: false }
    const matched = matchers.some((matcher) => matcher(error))
    const kind = matched ? 'transient' : kindOf(error)
    const retry = kind === 'transient' || (kind === 'unknown' && !!this.#options.retryUnknownErrors)
    if (!retry) return { retry: false }
    const wait = delayMs ? delayMs({ retryCount }) : 1000 * 2 ** retryCount
    return { retry: true, delayMs: Math.max(0, Math.min(wait, maxRetryAfterMs)) }
  }
}

function kindOf(error: unknown): 'transient' | 'permanent' | 'unknown' {
  if (!(error instanceof JudgeRequestError)) return 'unknown'
  const { status } = error
  if (status !== undefined) {
    if (CONTEXT_LENGTH.test(error.message)) return 'permanent'
    if (TRANSIENT.has(status) || status >= 500) return 'transient'
    return 'permanent'
  }
  // No status: a lost connection or a timeout of the endpoint's SDK, else a custom model's error.
  const cause = (error.cause as { name?: unknown } | undefined)?.name
  return typeof cause === 'string' && /Connection|Timeout/.test(cause) ? 'transient' : 'unknown'
}
