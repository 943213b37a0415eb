import type { CassetteMode, ResolvedConfig } from '../../config/resolve-config'

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

/**
 * Replies worth replaying: 2xx, and the deterministic client errors 400, 404 and 422. Never 401,
 * 403 (they depend on the key), 408, 429 or 5xx (they depend on the moment).
 * @internal
 */
export function isRecordableStatus(status: number): boolean {
  return (status >= 200 && status < 300) || status === 400 || status === 404 || status === 422
}

/**
 * Why the mode is what it is, for messages: `CI is set`, `CI detected: jenkins, from JENKINS_URL`,
 * `RUBRICATE_CASSETTES=replay`...
 * @internal
 */
export function modeReason(config: ResolvedConfig): string {
  const { mode, modeSource } = config.cassettes
  switch (modeSource) {
    case 'call':
      return `{ cassettes: '${mode}' } at the call site`
    case 'env':
      return `RUBRICATE_CASSETTES=${mode}`
    case 'configure':
      return 'set with configureRubricate'
    case 'plugin':
      return 'set in the plugin options'
    default: {
      const { ci } = config.cassettes
      if (mode === 'record') return 'vitest runs with -u'
      if (mode !== 'replay') return 'the default'
      return ci.provider ? `CI detected: ${ci.provider}, from ${ci.variable}` : 'CI is set'
    }
  }
}
