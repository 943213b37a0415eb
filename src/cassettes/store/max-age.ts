import { UsageError } from '../../errors'
import { messages } from '../../messages'
import { stateSlot } from '../../state'
import { displayPath } from '../run/paths'
import type { CassetteEntry } from './cassette-entry'

/** `maxAge` (DESIGN 7.8): a replayed entry older than this gets one warning per process. */

const UNITS: Record<string, number> = {
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
}
const warned = stateSlot('cassette-max-age-warned', () => new Set<string>())

/** Milliseconds of a duration: a number of ms, or `'30d'`, `'12h'`, `'15m'`, `'45s'`, `'2w'`. @internal */
export function parseDuration(value: string | number): number {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value
  if (typeof value === 'string') {
    const found = /^\s*(\d+(?:\.\d+)?)\s*([smhdw])\s*$/.exec(value)
    if (found?.[1] && found[2]) return Number(found[1]) * (UNITS[found[2]] ?? 0)
  }
  throw new UsageError(messages.invalidMaxAge(value))
}

/** Warn once when a replayed entry is older than `maxAge`. @internal */
export function warnIfOld(
  entry: CassetteEntry,
  file: string,
  maxAge: string | number | undefined,
  now: number = Date.now(),
): void {
  if (maxAge === undefined || warned.has(entry.key)) return
  const age = now - Date.parse(entry.recordedAt)
  if (!(age > parseDuration(maxAge))) return
  warned.add(entry.key)
  console.warn(messages.cassetteTooOld(displayPath(file), age, maxAge))
}
