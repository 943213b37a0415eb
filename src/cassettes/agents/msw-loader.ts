import { createRequire } from 'node:module'
import type * as Msw from 'msw'
import type * as MswNode from 'msw/node'
import { UsageError } from '../../errors'
import { messages } from '../../messages'
import { isMswActive } from './msw-compat'

/**
 * msw is an optional peer dependency: the core entry must load without it, so it is required
 * lazily, on first use. msw 2's exports map lists `module-sync` first and msw 3 is ESM only, so on
 * Node >= 20.19 this `require` returns the ESM build, the very copy a user's
 * `import { setupServer } from 'msw/node'` gets: our handlers and their server are one msw.
 */

const require = createRequire(import.meta.url)

/** The `msw` module, or a usage error naming what needed it. @internal */
export function loadMsw(what: string): typeof Msw {
  return load<typeof Msw>('msw', what)
}

/** The `msw/node` module, or a usage error naming what needed it. @internal */
export function loadMswNode(what: string): typeof MswNode {
  return load<typeof MswNode>('msw/node', what)
}

/**
 * Whether msw can be loaded from where rubricate is installed, without loading it. msw is optional:
 * the setup file intercepts agents' calls only when it is there. @internal
 */
export function isMswInstalled(): boolean {
  try {
    require.resolve('msw/node')
    return true
  } catch {
    return false
  }
}

/**
 * The installed msw's version, e.g. `'2.10.5'`, or a usage error naming what needed it when that
 * msw is older than the peer range allows (2.10; older ones are not tested).
 * @internal
 */
export function loadMswVersion(what: string): string {
  const { version } = load<{ version: string }>('msw/package.json', what)
  const [major = 0, minor = 0] = version.split('.').map(Number)
  if (major < 2 || (major === 2 && minor < 10)) {
    throw new UsageError(messages.mswTooOld(what, version))
  }
  return version
}

/**
 * `request` marked so that no msw server handles it. Only while msw intercepts: without an
 * interceptor nothing strips the marker, and the server would receive `accept: msw/passthrough`.
 * @internal
 */
export function bypassIfIntercepted(request: Request): Request {
  if (!isMswActive()) return request
  return loadMsw('A live judge call while msw is intercepting').bypass(request)
}

function load<T>(id: string, what: string): T {
  try {
    return require(id) as T
  } catch (error) {
    throw new UsageError(messages.mswMissing(what, (error as Error).message), { cause: error })
  }
}
