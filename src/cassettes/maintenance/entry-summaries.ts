import { type CassetteEntry, serializeEntry } from '../store/cassette-entry'

/**
 * Whether a format-2 file says what its entry holds. A file carries text for reviewers that
 * replay never reads: the `verdicts` of a judge entry, the `streamedText` of a stream, values as
 * `$lines`, `$float32` and `$escape`. An edit to any of them (by hand, a merge, a hostile pull
 * request) would show a reviewer one verdict while replay serves another. So the decoded entry is
 * written again as rubricate writes it, and the file must read the same: a summary that does not
 * follow from its reply, a `$float32` number that does not survive as a 32-bit float, a stray
 * member, all differ. Returns the problem, in `verify`'s words, or `undefined`.
 * @internal
 */
export function summaryProblem(fileJson: unknown, entry: CassetteEntry): string | undefined {
  const written = JSON.parse(serializeEntry(entry).text) as unknown
  const difference = firstDifference(fileJson, written, '')
  if (!difference) return undefined
  const { path, shown, derived } = difference
  const said = `the file shows ${describe(shown)}, the recorded reply gives ${describe(derived)}`
  if (path === 'verdicts' || path.startsWith('verdicts.') || path.startsWith('verdicts[')) {
    return `its "verdicts" summary does not match its reply at "${path}" (${said}): replay serves the reply, not the summary, so a reviewer would read another verdict than the one served. Restore the file as recorded, or record it again`
  }
  if (path.startsWith('response.streamedText')) {
    return `its "response.streamedText" does not match its stream events (${said}): replay serves the events, not the text a reviewer reads. Restore the file as recorded, or record it again`
  }
  return `"${path}" is not as rubricate writes it (${said}): what a reviewer reads there is not what replay serves. Restore the file as recorded, or record it again`
}

interface Difference {
  path: string
  shown: unknown
  derived: unknown
}

function firstDifference(a: unknown, b: unknown, path: string): Difference | undefined {
  if (a === b) return undefined
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const found = firstDifference(a[i], b[i], `${path}[${i}]`)
      if (found) return found
    }
    return undefined
  }
  if (isRecord(a) && isRecord(b)) {
    const names = [...new Set([...Object.keys(a), ...Object.keys(b)])]
    for (const name of names) {
      const shown = Object.hasOwn(a, name) ? a[name] : undefined
      const derived = Object.hasOwn(b, name) ? b[name] : undefined
      const member = /^[A-Za-z_$][\w$]*$/.test(name)
        ? `${path ? `${path}.` : ''}${name}`
        : `${path}[${JSON.stringify(name)}]`
      const found = firstDifference(shown, derived, member)
      if (found) return found
    }
    return undefined
  }
  return { path: path || '(the whole file)', shown: a, derived: b }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

// A value as the message quotes it: short, on one line.
function describe(value: unknown): string {
  if (value === undefined) return 'nothing'
  const text = JSON.stringify(value)
  return text.length > 80 ? `${text.slice(0, 77)}...` : text
}
