import { stateSlot } from '../../runtime/state'

/**
 * Ids a live server issued in place of recorded ones (ARCHITECTURE.md §7.10). When a re-record
 * keeps a stored entry (its reply unchanged but for ids), the client is served the stored reply
 * and carries the stored ids on: a `previous_response_id`, a conversation in a URL. The live
 * server knows only its own ids, so each live request of this worker has the stored ids turned
 * back into the live ones, and each live reply the live ones into the stored ones, which keeps
 * every recorded chain consistent with the requests that replay will make.
 * @internal
 */
export interface IdAliases {
  /** Learn the ids that differ between a stored reply and the live one it stands for. */
  learn(stored: unknown, live: unknown): void
  /** A rewrite of request text (URL, body) to the live ids; `undefined` when none is known. */
  toLive(): ((text: string) => string) | undefined
  /** A live reply's bytes with the live ids turned into the stored ones. */
  toStoredBytes(bytes: Uint8Array): Uint8Array
}

// Ids are at least this long: a shorter value (`"1"`) could be part of any text.
const MIN_ID_LENGTH = 8

/** A fresh set of aliases (one per worker; tests make their own). @internal */
export function createIdAliases(): IdAliases {
  const liveOf = new Map<string, string>()
  const storedOf = new Map<string, string>()
  const replace = (text: string, map: Map<string, string>) => {
    let out = text
    for (const [from, to] of map) if (out.includes(from)) out = out.split(from).join(to)
    return out
  }
  return {
    learn(stored, live) {
      for (const [was, is] of differingIds(stored, live)) {
        liveOf.set(was, is)
        storedOf.set(is, was)
      }
    },
    toLive: () => (liveOf.size === 0 ? undefined : (text) => replace(text, liveOf)),
    toStoredBytes(bytes) {
      if (storedOf.size === 0) return bytes
      const text = new TextDecoder().decode(bytes)
      const out = replace(text, storedOf)
      return out === text ? bytes : new TextEncoder().encode(out)
    },
  }
}

const aliases = stateSlot('id-aliases', () => createIdAliases())

/** The worker's id aliases. @internal */
export function idAliases(): IdAliases {
  return aliases
}

/** Pairs of `id` values found at the same place in two replies that differ. */
function differingIds(
  stored: unknown,
  live: unknown,
  out: [string, string][] = [],
): [string, string][] {
  if (stored === null || live === null || typeof stored !== 'object' || typeof live !== 'object') {
    return out
  }
  if (Array.isArray(stored)) {
    if (!Array.isArray(live)) return out
    for (let i = 0; i < stored.length && i < live.length; i++) differingIds(stored[i], live[i], out)
    return out
  }
  const a = stored as Record<string, unknown>
  const b = live as Record<string, unknown>
  for (const name of Object.keys(a)) {
    const was = a[name]
    const is = b[name]
    if (name === 'id' && typeof was === 'string' && typeof is === 'string') {
      if (was !== is && was.length >= MIN_ID_LENGTH && is.length >= MIN_ID_LENGTH)
        out.push([was, is])
    } else differingIds(was, is, out)
  }
  return out
}
