import { stateSlot } from '../src/state'

// Keys of replay misses that an assertion already failed with. The setup file fails a test file
// for misses nobody reported (an agent's call swallowed by the code under test), not twice for
// the ones a matcher showed.
const reported = stateSlot('vitest-reported-misses', () => new Set<string>())

/** Remember that an assertion failed with the miss of `key`. @internal */
export function markMissReported(key: string): void {
  reported.add(key)
}

/** The keys marked since the last call, then forgotten (one test file at a time). @internal */
export function takeReportedMisses(): Set<string> {
  const keys = new Set(reported)
  reported.clear()
  return keys
}
