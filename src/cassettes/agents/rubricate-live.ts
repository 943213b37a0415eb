import { currentCallContext, withCallContext } from '../../runtime/call-context'

/**
 * rubricate's own live requests (the judge's, and the agent handlers' recordings), told apart from
 * the agent's: the fetch fallback (fetch-fallback.ts) and the network guard (network-guard.ts)
 * leave them alone. Marked in the call context, the one ambient store: the guard sees a socket, not
 * a caller.
 */

/** Run `call` as one of rubricate's own live requests. @internal */
export function asRubricateLive<T>(call: () => T): T {
  return withCallContext({ transport: 'rubricate-live' }, call)
}

/** True inside {@link asRubricateLive}. @internal */
export function isRubricateLive(): boolean {
  return currentCallContext().transport === 'rubricate-live'
}
