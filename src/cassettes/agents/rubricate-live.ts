import { runtimeState } from '../../runtime/state'

/**
 * rubricate's own live requests (the judge's, and the agent handlers' recordings), told apart from
 * the agent's: the fetch fallback (fetch-fallback.ts) and the network guard (network-guard.ts)
 * leave them alone. In the runtime's process part, so that the ESM and CJS builds agree.
 */
const { live } = runtimeState().process

/** Run `call` as one of rubricate's own live requests. @internal */
export function asRubricateLive<T>(call: () => T): T {
  return live.run(true, call)
}

/** True inside {@link asRubricateLive}. @internal */
export function isRubricateLive(): boolean {
  return live.getStore() === true
}
