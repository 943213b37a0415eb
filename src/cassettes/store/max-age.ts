import { parseDuration } from '../../config/duration'
import { displayPath } from '../../config/paths'
import { messages } from '../../messages'
import { runtimeState } from '../../runtime/state'
import type { CassetteEntry } from './cassette-entry'

/** `maxAge` (ARCHITECTURE.md §7.8): a replayed entry older than this gets one warning per process. */

/** Warn once when a replayed entry is older than `maxAge`. @internal */
export function warnIfOld(
  entry: CassetteEntry,
  file: string,
  maxAge: string | number | undefined,
  now: number = Date.now(),
): void {
  const warned = runtimeState().process.told.oldEntries
  if (maxAge === undefined || warned.has(entry.key)) return
  const age = now - Date.parse(entry.recordedAt)
  if (!(age > parseDuration(maxAge))) return
  warned.add(entry.key)
  console.warn(messages.cassetteTooOld(displayPath(file), age, maxAge))
}
