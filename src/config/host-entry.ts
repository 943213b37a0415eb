import { isIP } from 'node:net'

/**
 * The one check of a configured host entry (`cassettes.providerHosts`, and any other list of
 * hosts a user writes): a host name alone, which may start with `*.` or `.` and hold `*` for part
 * of one label. A port, a scheme, a path or a user (`localhost:8080`, `https://llm.example.com/`)
 * would never equal a request's host name, so the entry would be accepted and do nothing: it is
 * refused with the form expected instead.
 */

const LABEL = /^(?:\*|[a-z0-9_*](?:[a-z0-9_*-]*[a-z0-9_*])?)$/i

/**
 * What is wrong with `entry` as a host entry, as a sentence part ("has a port"), or `undefined`
 * when it is a host name. @internal
 */
export function hostEntryProblem(entry: unknown): string | undefined {
  if (typeof entry !== 'string') return 'is not a string'
  const host = entry.trim()
  if (host === '') return 'is empty'
  if (host !== entry) return 'has spaces around it'
  if (isIP(host) !== 0) return undefined
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(host)) return 'is a URL, not a host name'
  if (host.includes('/')) return 'has a path'
  if (host.includes('@')) return 'has a user name'
  if (host.includes(':')) return 'has a port (or is an IPv6 address)'
  const labels = host
    .replace(/^\*?\./, '')
    .replace(/\.$/, '')
    .split('.')
  if (!labels.every((label) => LABEL.test(label))) return 'is not a host name'
  return undefined
}
