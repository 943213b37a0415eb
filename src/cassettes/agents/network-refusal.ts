import { testLabel } from '../../config/paths'
import { NetworkBlockedError } from '../../errors'
import { messages } from '../../messages'
import { runningTest } from '../../runtime/call-context'
import { runtimeState } from '../../runtime/state'
import { reportUndecided } from '../../runtime/undecided-hooks'
import { isMswInstalled } from './msw-loader'

/**
 * A connection refused in replay mode, told through the channel of undecided calls (the one a
 * cassette miss takes, src/runtime/undecided-hooks.ts): the setup file fails the test that opened
 * it, or the file outside any test, even when the code under test swallowed the error (a tracer
 * does, and an SDK retries it).
 */

// One refusal per run of a test and message: an SDK retries a refused connection, and a tracer
// posts every batch; the test fails once for each host. Keyed by the run's sequence map, which
// `runAsTest` makes afresh for every run of a test (the runtime's test part).
const told = runtimeState().test.refusalsTold

/** What a refusal is about: a model provider's host, a tracing export, or any other host. */
export type RefusalKind =
  | { kind: 'provider'; host: string }
  | { kind: 'other'; host: string }
  | { kind: 'telemetry'; host: string; target: string }

/** Make the refusal of `what`, tell it once per test run, and return it. @internal */
export function refuseConnection(what: RefusalKind): NetworkBlockedError {
  const test = runningTest()
  const label = test ? testLabel(test.identity) : undefined
  const error = new NetworkBlockedError(
    what.kind === 'provider'
      ? messages.providerConnectionRefused(what.host, label, isMswInstalled())
      : what.kind === 'telemetry'
        ? messages.telemetryRefused(what.target, what.host, label)
        : messages.networkBlocked(what.host, label, isMswInstalled()),
  )
  const run = test?.sequence
  if (run) {
    const messagesTold = told.get(run) ?? new Set<string>()
    told.set(run, messagesTold)
    if (messagesTold.has(error.message)) return error
    messagesTold.add(error.message)
  }
  reportUndecided(error)
  return error
}
