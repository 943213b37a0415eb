/**
 * Error classes with stable codes (ARCHITECTURE.md §11). Match on `code`, not on `instanceof`: two
 * copies of rubricate (two versions, or two paths to one) can be loaded in one process.
 */
import type { JudgeCall } from './records/records'

/** Every error code rubricate throws. */
export type RubricateErrorCode =
  | 'RUBRICATE_NO_JUDGE'
  | 'RUBRICATE_JUDGE_OUTPUT'
  | 'RUBRICATE_JUDGE_REQUEST'
  | 'RUBRICATE_CASSETTE_MISS'
  | 'RUBRICATE_CASSETTE_CORRUPT'
  | 'RUBRICATE_SECRET_IN_CASSETTE'
  | 'RUBRICATE_CASSETTE_WRITE'
  | 'RUBRICATE_NETWORK_BLOCKED'
  | 'RUBRICATE_SCORER_RUN'
  | 'RUBRICATE_USAGE'
  | 'RUBRICATE_LIMIT'

/**
 * Where the documentation site lives (VitePress, `docs/`, served under its `base`, `/rubricate/`).
 * `npm run docs:check` holds this path to the config's `base`.
 */
export const DOCS_SITE = 'https://rubricate.github.io/rubricate/'

/**
 * The page of an error code on the documentation site: `RUBRICATE_CASSETTE_MISS` is
 * `errors/cassette-miss`. `npm run docs:check` fails when a code has no page or a page no code.
 */
export function errorPage(code: RubricateErrorCode): string {
  return `${DOCS_SITE}errors/${code.slice('RUBRICATE_'.length).toLowerCase().replaceAll('_', '-')}`
}

const LINK_LINE = `\nSee ${DOCS_SITE}errors/`

/**
 * A message without the link to its error page that {@link RubricateError} ends it with: for a
 * message that tells another error's inside its own (which gets its own link), or text that is
 * not printed to a person (an agent's feedback).
 * @internal
 */
export function withoutErrorPage(message: string): string {
  const at = message.lastIndexOf(LINK_LINE)
  return at !== -1 && !message.includes('\n', at + 1) ? message.slice(0, at) : message
}

/**
 * Base class of every rubricate error. Its message ends with a line that links to the code's page
 * (`See https://.../errors/<code>`): added here, once, so no message has to carry it.
 */
export class RubricateError extends Error {
  readonly code: RubricateErrorCode
  constructor(code: RubricateErrorCode, message: string, options?: { cause?: unknown }) {
    // A message built from another error's keeps one link: its own code's.
    super(`${withoutErrorPage(message)}\nSee ${errorPage(code)}`, options)
    this.code = code
    this.name = 'RubricateError'
  }
}

/** No judge was configured anywhere, but an assertion or scorer step needs one. */
export class NoJudgeError extends RubricateError {
  constructor(message: string) {
    super('RUBRICATE_NO_JUDGE', message)
    this.name = 'NoJudgeError'
  }
}

/** The judge answered, but its reply did not validate, even after the repair attempt. */
export class JudgeOutputError extends RubricateError {
  /** The judge's raw reply text (of the last attempt). */
  readonly rawText: string
  constructor(message: string, rawText: string, options?: { cause?: unknown }) {
    super('RUBRICATE_JUDGE_OUTPUT', message, options)
    this.name = 'JudgeOutputError'
    this.rawText = rawText
  }
}

/** The request to the judge failed: a provider error, an exhausted retry budget, an abort. */
export class JudgeRequestError extends RubricateError {
  /** HTTP status, when the provider answered. */
  readonly status: number | undefined
  constructor(message: string, status?: number, options?: { cause?: unknown }) {
    super('RUBRICATE_JUDGE_REQUEST', message, options)
    this.name = 'JudgeRequestError'
    this.status = status
  }
}

/** Replay mode found no recorded exchange for a request; no network call was made. */
export class CassetteMissError extends RubricateError {
  readonly key: string
  constructor(message: string, key: string) {
    super('RUBRICATE_CASSETTE_MISS', message)
    this.name = 'CassetteMissError'
    this.key = key
  }
}

/** A cassette file could not be read as a valid entry; the file is left as it was. */
export class CassetteCorruptError extends RubricateError {
  readonly file: string
  constructor(message: string, file: string, options?: { cause?: unknown }) {
    super('RUBRICATE_CASSETTE_CORRUPT', message, options)
    this.name = 'CassetteCorruptError'
    this.file = file
  }
}

/**
 * A recorded entry could not be written (a read-only or missing folder, a full disk). Nothing was
 * left half-written; the reply the client got is unaffected.
 */
export class CassetteWriteError extends RubricateError {
  readonly file: string
  constructor(message: string, file: string, options?: { cause?: unknown }) {
    super('RUBRICATE_CASSETTE_WRITE', message, options)
    this.name = 'CassetteWriteError'
    this.file = file
  }
}

/** An entry still held a known secret after redaction, so it was not written. */
export class SecretInCassetteError extends RubricateError {
  constructor(message: string) {
    super('RUBRICATE_SECRET_IN_CASSETTE', message)
    this.name = 'SecretInCassetteError'
  }
}

/**
 * In replay mode a test opened a connection outside loopback that no cassette served and
 * `cassettes.allowHosts` does not name, or sent a trace.
 */
export class NetworkBlockedError extends RubricateError {
  constructor(message: string) {
    super('RUBRICATE_NETWORK_BLOCKED', message)
    this.name = 'NetworkBlockedError'
  }
}

/** A scorer step failed. `cause` is the step's error (a judge failure keeps its own code). */
export class ScorerRunError extends RubricateError {
  /** The step that failed. */
  readonly failedStep: string
  /** The steps that finished before it, in order. */
  readonly completedSteps: string[]
  /** What the completed steps produced, plus the judge calls made so far. */
  readonly result: Record<string, unknown> | undefined
  constructor(
    message: string,
    details: {
      failedStep: string
      completedSteps: string[]
      result?: Record<string, unknown> | undefined
    },
    options?: { cause?: unknown },
  ) {
    super('RUBRICATE_SCORER_RUN', message, options)
    this.name = 'ScorerRunError'
    this.failedStep = details.failedStep
    this.completedSteps = details.completedSteps
    this.result = details.result
  }
}

/** A run-level limit (`maxLiveCalls`, `maxCost`) stopped a live run. */
export class LimitError extends RubricateError {
  constructor(message: string) {
    super('RUBRICATE_LIMIT', message)
    this.name = 'LimitError'
  }
}

/** The library was called with input it cannot use. The message says what to change. */
export class UsageError extends RubricateError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('RUBRICATE_USAGE', message, options)
    this.name = 'UsageError'
  }
}

/** True for any rubricate error, from this copy of the module or another. */
export function isRubricateError(error: unknown): error is RubricateError {
  if (!(error instanceof Error)) return false
  const code: unknown = (error as Error & { code?: unknown }).code
  return typeof code === 'string' && code.startsWith('RUBRICATE_')
}

/**
 * The innermost rubricate error in a `cause` chain (a judge failure wrapped in `ScorerRunError`
 * reports the judge's code), else the error itself.
 */
export function rootCause(error: unknown): unknown {
  let current = error
  let found: unknown = isRubricateError(error) ? error : undefined
  for (
    let depth = 0;
    depth < 10 && current instanceof Error && current.cause !== undefined;
    depth++
  ) {
    current = current.cause
    if (isRubricateError(current)) found = current
  }
  return found ?? error
}

/**
 * The judge calls a failed scorer run made before it failed, from the partial result its
 * `ScorerRunError` carries (found anywhere in the `cause` chain): failed calls cost requests too,
 * and must be counted with the rest. Empty when the error carries none.
 * @internal
 */
export function judgeCallsOf(error: unknown): JudgeCall[] {
  let current = error
  for (let depth = 0; depth < 10 && typeof current === 'object' && current !== null; depth++) {
    const calls = (current as { result?: { judgeCalls?: unknown } }).result?.judgeCalls
    if (Array.isArray(calls)) return calls as JudgeCall[]
    current = (current as { cause?: unknown }).cause
  }
  return []
}
