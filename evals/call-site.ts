/**
 * Where `describeEval` was called, captured once per eval. A failure that rubricate raises for a
 * row or for the gate points there (its code frame shows the user's test file), not into
 * rubricate's own code, which is all its stack would otherwise hold.
 * @internal
 */
export function captureCallSite(): Error {
  return new Error('describeEval')
}

/** Give `error` the frames of the call site, keeping its message. @internal */
export function pointAt<T>(error: T, callSite: Error): T {
  if (!(error instanceof Error)) return error
  // Line 0 names the error; then come captureCallSite and describeEval themselves.
  const frames = callSite.stack?.split('\n').slice(3) ?? []
  error.stack = [`${error.name}: ${error.message}`, ...frames].join('\n')
  return error
}
