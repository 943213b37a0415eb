import { UsageError } from '../errors'
import { messages } from '../messages'

const UNITS: Record<string, number> = {
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
}
/** Milliseconds of a duration: a number of ms, or `'30d'`, `'12h'`, `'15m'`, `'45s'`, `'2w'`. @internal */
export function parseDuration(value: string | number): number {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value
  if (typeof value === 'string') {
    const found = /^\s*(\d+(?:\.\d+)?)\s*([smhdw])\s*$/.exec(value)
    if (found?.[1] && found[2]) return Number(found[1]) * (UNITS[found[2]] ?? 0)
  }
  throw new UsageError(messages.invalidMaxAge(value))
}
