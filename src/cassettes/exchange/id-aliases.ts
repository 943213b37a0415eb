import { streamEvents } from '../store/stream-events'

/**
 * Ids a live server issued in place of recorded ones (ARCHITECTURE.md §7.10). When a re-record
 * keeps a stored entry (its reply unchanged but for ids), the client is served the stored reply
 * and carries the stored ids on: a `previous_response_id`, a conversation in a URL. The live
 * server knows only its own ids, so each live request of this worker has the stored ids turned
 * back into the live ones, and each live reply the live ones into the stored ones, which keeps
 * every recorded chain consistent with the requests that replay will make.
 *
 * A streamed reply has reached the client live, ids and all, before the store decides to keep
 * its entry; so the client carries the live ids on. Each request is therefore keyed with the
 * live ids it carries turned back into the stored ones ({@link IdAliases.toStored}): the
 * follow-up of a kept stream is the stored chain's next entry, as it is at replay.
 * @internal
 */
export interface IdAliases {
  /** Learn the ids that differ between a stored reply and the live one it stands for. */
  learn(stored: unknown, live: unknown): void
  /** Learn them from a stored stream and the live one, event by event. */
  learnStream(stored: readonly { chunk: string }[], live: readonly { chunk: string }[]): void
  /** A rewrite of request text (URL, body) to the stored ids, for its key; `undefined` when none is known. */
  toStored(): ((text: string) => string) | undefined
  /** A rewrite of request text (URL, body) to the live ids; `undefined` when none is known. */
  toLive(): ((text: string) => string) | undefined
  /** A live reply's bytes with the live ids turned into the stored ones. */
  toStoredBytes(bytes: Uint8Array): Uint8Array
}

// Ids are at least this long: a shorter value (`"1"`) could be part of any text.
const MIN_ID_LENGTH = 8

/**
 * A fresh set of aliases (the runtime's `ids`; tests make their own). An id is aliased once, to
 * the id it was first learnt with, and every rewrite is one pass over the text: a server that
 * issues sequential ids re-issues a stored id as another reply's live one (`…01` stored as `…01`,
 * live as `…02`, while `…02` is another stored reply's), and a rewrite that went on from one alias
 * to the next (`…01→…02→…03`) would fetch, send and record another reply's id. @internal
 */
export function createIdAliases(): IdAliases {
  // Stored id → live id, for what is sent live.
  const liveOf = new IdMap()
  // Live id → stored id, for a live reply's bytes.
  const storedOf = new IdMap()
  // Live id → stored id of a kept stream, for keys alone: a client carries on the live ids of a
  // stream it read, and the stored ids of a reply it was served, which are never turned.
  const keyedAs = new IdMap()
  const learnPairs = (stored: unknown, live: unknown, stream: boolean) => {
    for (const [was, is] of differingIds(stored, live)) {
      liveOf.add(was, is)
      storedOf.add(is, was)
      if (stream) keyedAs.add(is, was)
    }
  }
  return {
    learn: (stored, live) => learnPairs(stored, live, false),
    learnStream(stored, live) {
      const was = streamEvents(stored)
      const is = streamEvents(live)
      for (let i = 0; i < was.length && i < is.length; i++) {
        learnPairs(was[i]?.json, is[i]?.json, true)
      }
    },
    toStored: () => (keyedAs.size === 0 ? undefined : (text) => keyedAs.replace(text)),
    toLive: () => (liveOf.size === 0 ? undefined : (text) => liveOf.replace(text)),
    toStoredBytes(bytes) {
      if (storedOf.size === 0) return bytes
      const text = new TextDecoder().decode(bytes)
      const out = storedOf.replace(text)
      return out === text ? bytes : new TextEncoder().encode(out)
    },
  }
}

/** Ids and what each stands for, replaced in one pass: a replacement is never replaced again. */
class IdMap {
  readonly #to = new Map<string, string>()
  #pattern: RegExp | undefined

  get size(): number {
    return this.#to.size
  }

  /** Alias `from` to `to`, unless `from` already stands for an id: the first alias holds. */
  add(from: string, to: string): void {
    if (this.#to.has(from)) return
    this.#to.set(from, to)
    this.#pattern = undefined
  }

  replace(text: string): string {
    // Longest first, so an id that begins another is not matched inside it.
    this.#pattern ??= new RegExp(
      [...this.#to.keys()]
        .sort((a, b) => b.length - a.length)
        .map((id) => id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('|'),
      'g',
    )
    return text.replace(this.#pattern, (id) => this.#to.get(id) ?? id)
  }
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
    if (
      (name === 'id' || name === 'call_id') &&
      typeof was === 'string' &&
      typeof is === 'string'
    ) {
      if (was !== is && was.length >= MIN_ID_LENGTH && is.length >= MIN_ID_LENGTH)
        out.push([was, is])
    } else differingIds(was, is, out)
  }
  return out
}
