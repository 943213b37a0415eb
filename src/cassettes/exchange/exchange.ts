/**
 * One HTTP exchange through the cassettes, shared by the judge's fetch, the msw handlers and the
 * fetch adapter (ARCHITECTURE.md §7.1). Its lifecycle, one file a phase: the request is prepared
 * (`prepared-request.ts`), served from the store (`replay.ts`), or a miss (`cassette-miss.ts`), or
 * made live and recorded (`live-and-record.ts`), as the mode says. Replay-mode misses and
 * refusals are thrown; each caller turns them into what its client expects.
 */

import type { CassetteMode } from '../../config/resolve-config'
import { type Occurrences, runningTest } from '../../runtime/call-context'
import { storeFor } from '../store/cassette-store'
import { miss } from './cassette-miss'
import { liveAndRecord, offExchange } from './live-and-record'
import { atOccurrence, type ExchangeInput } from './prepared-request'
import { type ExchangeReply, serve } from './replay'

/**
 * The one exchange of the cassette engine (ARCHITECTURE.md §7.1): the judge's calls and the
 * agents' calls all end here. The request is prepared (parsed, redacted, keyed) once, given its
 * occurrence in the running test, and served from the store when it is there: a hit is answered
 * synchronously, with nothing awaited, and builds no `Response` until its caller asks for one
 * (`ExchangeReply`). Otherwise it is a miss (mode `replay`) or goes live through the caller's
 * transport and is recorded.
 * @internal
 */
export function exchange(input: ExchangeInput): ExchangeReply | Promise<ExchangeReply> {
  const { config } = input
  const mode = input.mode ?? config.cassettes.mode
  if (mode === 'off') return offExchange(input)
  const base = input.prepare(input.runtime.ids.toStored())
  // The n-th identical request of a test is the n-th of its sequence, taken now, before anything
  // is awaited: identical requests made at once are told apart in the order they were made.
  const occurrences = occurrencesOf(base.key)
  const occurrence = takeOccurrence(occurrences)
  const request = atOccurrence(base, occurrence)
  const store = storeFor(input.runtime.stores, config.cassettes.dir)
  if (readsCassettes(mode)) {
    const hit = serve(input, request, store, mode === 'replay' && config.cassettes.repeatReplies)
    if (hit) return hit
  }
  if (mode === 'replay') return miss(input, request, store)
  // A live reply that is not recorded (a 503, a failed connection) is not made at replay: its
  // number is given back, so the retry that was recorded answers the request replay makes.
  return liveAndRecord(input, request, store, () => occurrences?.free.push(occurrence))
}

function occurrencesOf(key: string): Occurrences | undefined {
  const sequence = runningTest()?.sequence
  if (!sequence) return undefined
  let occurrences = sequence.get(key)
  if (!occurrences) {
    occurrences = { taken: 0, free: [] }
    sequence.set(key, occurrences)
  }
  return occurrences
}

/** The lowest number given back by an unrecorded request, else the next one (1 outside a test). */
function takeOccurrence(occurrences: Occurrences | undefined): number {
  if (!occurrences) return 1
  if (occurrences.free.length === 0) return ++occurrences.taken
  const lowest = Math.min(...occurrences.free)
  occurrences.free.splice(occurrences.free.indexOf(lowest), 1)
  return lowest
}

/**
 * What each mode does (ARCHITECTURE.md §7.4), and what gets recorded.
 *
 * | mode     | hit                    | miss                  |
 * |----------|------------------------|-----------------------|
 * | `replay` | served                 | fails (no network)    |
 * | `auto`   | served                 | live call, recorded   |
 * | `record` | live call, re-recorded | live call, recorded   |
 * | `off`    | live                   | live                  |
 */

/** The mode reads the store before going live. @internal */
export function readsCassettes(mode: CassetteMode): boolean {
  return mode === 'replay' || mode === 'auto'
}

/** The mode writes what it gets live. @internal */
export function writesCassettes(mode: CassetteMode): boolean {
  return mode === 'auto' || mode === 'record'
}
