// An agent's tool calls against reference calls: the largest pairing (in order, or in any order),
// each reference call's status, the extra calls and the partial credit. The tool-call scorer and
// toMatchTrajectory share it, so the matcher passes exactly when the scorer gives 1.

import { UsageError } from '../errors'
import type { ToolCall } from '../output'
import { type ArgsRules, argsFit, argsModeFor } from './args-match'
import type { ExpectedToolCall } from './reference-calls'
import { trajectoryMessages } from './trajectory-messages'

/**
 * How the calls are compared with the reference (agentevals' modes): `'strict'`, the same calls in
 * the same order; `'unordered'`, the same calls in any order; `'subset'`, no call outside the
 * reference (some may be missing); `'superset'`, every reference call (others allowed).
 */
export type TrajectoryMatchMode = 'strict' | 'unordered' | 'subset' | 'superset'

/** What a mode asks for. @internal */
export interface MatchRules {
  /** Reference calls must come in their order. */
  ordered: boolean
  /** A reference call not matched counts against the score. */
  countMissing: boolean
  /** A call that matches no reference call counts against the score. */
  countExtras: boolean
}

/** The rules of each mode. @internal */
export const MODE_RULES: Readonly<Record<TrajectoryMatchMode, MatchRules>> = {
  strict: { ordered: true, countMissing: true, countExtras: true },
  unordered: { ordered: false, countMissing: true, countExtras: true },
  subset: { ordered: false, countMissing: false, countExtras: true },
  superset: { ordered: false, countMissing: true, countExtras: false },
}

/** The modes, in the order messages list them. @internal */
export const TRAJECTORY_MODES: readonly TrajectoryMatchMode[] = [
  'strict',
  'unordered',
  'subset',
  'superset',
]

/**
 * One reference call's outcome: `matched` (by the call at `at`), `missing` (no call fits it), or
 * `out of order` (the call at `at` fits it, but not in the reference's order).
 */
export interface ReferenceCallStatus {
  name: string
  /** Absent: any arguments. */
  args?: unknown
  status: 'matched' | 'missing' | 'out of order'
  /** The index of the call it was matched with or found at (from 0). */
  at?: number | undefined
}

/** The outcome of a match. @internal */
export interface TrajectoryMatch {
  reference: ReferenceCallStatus[]
  /** The indexes of the calls that fit no reference call. */
  extra: number[]
  score: number
}

/**
 * Match `calls` with `reference` under `rules`. In order, the longest run of reference calls made
 * in their order is matched (not the first fitting call of each: that can match fewer), and the
 * calls left over that fit a reference call left over are that call, out of order. In any order,
 * the largest pairing. The score is the matched reference calls over the reference calls (those
 * matched, when missing ones do not count) plus the extra calls (when they count); 1 when both
 * are none. Throws `RUBRICATE_USAGE` when a reference call is missing while a call of its tool has
 * arguments that are not JSON: whether it fits cannot be told.
 * @internal
 */
export function matchTrajectory(
  calls: readonly ToolCall[],
  reference: readonly ExpectedToolCall[],
  rules: MatchRules,
  args: ArgsRules,
): TrajectoryMatch {
  const fits = reference.map((want) =>
    calls.map(
      (call) =>
        want.name === call.name &&
        (want.args === undefined ||
          argsFit(argsModeFor(args, want.name), want.args, call.args, call.name)),
    ),
  )
  const pairs = rules.ordered ? inOrder(fits, calls.length) : largestPairing(fits, calls.length)
  const late = rules.ordered
    ? largestPairing(
        fits.map((row, r) => row.map((fit, c) => fit && pairs[r] === -1 && !pairs.includes(c))),
        calls.length,
      )
    : reference.map(() => -1)
  const used = new Set([...pairs, ...late].filter((at) => at >= 0))
  const statuses: ReferenceCallStatus[] = reference.map((want, r) => {
    const at = (pairs[r] as number) >= 0 ? pairs[r] : (late[r] as number) >= 0 ? late[r] : undefined
    const status =
      (pairs[r] as number) >= 0 ? 'matched' : at !== undefined ? 'out of order' : 'missing'
    const entry: ReferenceCallStatus = { name: want.name, status }
    if (want.args !== undefined) entry.args = want.args
    if (at !== undefined) entry.at = at
    return entry
  })
  assertArgsReadable(calls, reference, statuses, args)
  const extra = calls.map((_, c) => c).filter((c) => !used.has(c))
  const matched = statuses.filter((entry) => entry.status === 'matched').length
  const total =
    (rules.countMissing ? reference.length : matched) + (rules.countExtras ? extra.length : 0)
  return { reference: statuses, extra, score: total === 0 ? 1 : matched / total }
}

// The longest common subsequence of reference calls and calls under `fits`; `pairs[r]` is the
// call matched with reference call r, or -1. On a tie an earlier reference call keeps its match.
function inOrder(fits: readonly boolean[][], count: number): number[] {
  const n = fits.length
  const best: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(count + 1).fill(0))
  for (let r = n - 1; r >= 0; r--) {
    for (let c = count - 1; c >= 0; c--) {
      const skip = Math.max(best[r + 1]?.[c] as number, best[r]?.[c + 1] as number)
      const take = fits[r]?.[c] ? 1 + (best[r + 1]?.[c + 1] as number) : 0
      ;(best[r] as number[])[c] = Math.max(skip, take)
    }
  }
  const pairs = new Array<number>(n).fill(-1)
  let r = 0
  let c = 0
  while (r < n && c < count) {
    const here = best[r]?.[c] as number
    if (fits[r]?.[c] && here === 1 + (best[r + 1]?.[c + 1] as number)) {
      pairs[r] = c
      r++
      c++
    } else if ((best[r]?.[c + 1] as number) === here) c++
    else r++
  }
  return pairs
}

// The largest pairing of reference calls with calls (augmenting paths): a first-fit pass can
// match fewer when one call fits several reference calls (the same tool, looser arguments).
function largestPairing(fits: readonly boolean[][], count: number): number[] {
  const owner = new Array<number>(count).fill(-1)
  const assign = (r: number, seen: boolean[]): boolean => {
    for (let c = 0; c < count; c++) {
      if (seen[c] || !fits[r]?.[c]) continue
      seen[c] = true
      if (owner[c] === -1 || assign(owner[c] as number, seen)) {
        owner[c] = r
        return true
      }
    }
    return false
  }
  fits.forEach((_, r) => {
    assign(r, new Array<boolean>(count).fill(false))
  })
  const pairs = fits.map(() => -1)
  owner.forEach((r, c) => {
    if (r >= 0) pairs[r] = c
  })
  return pairs
}

// A missing reference call with arguments, and a call of its tool whose arguments the model sent
// as text that is not JSON: whether that call fits cannot be told, so neither a score nor a
// `.not` may rest on it. A user's function decides for itself; `'ignore'` never looks.
function assertArgsReadable(
  calls: readonly ToolCall[],
  reference: readonly ExpectedToolCall[],
  statuses: readonly ReferenceCallStatus[],
  args: ArgsRules,
): void {
  reference.forEach((want, r) => {
    if (
      statuses[r]?.status !== 'missing' ||
      want.args === undefined ||
      typeof want.args === 'string'
    ) {
      return
    }
    const mode = argsModeFor(args, want.name)
    if (mode !== 'exact' && mode !== 'subset') return
    const raw = calls.find((call) => call.name === want.name && typeof call.args === 'string')
    if (raw) throw new UsageError(trajectoryMessages.argsNotJson(want.name, raw.args as string))
  })
}
