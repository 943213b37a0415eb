// rubricate/cassettes: record and replay your agents' own model calls (and a custom judge's),
// beside the scoring API of `rubricate`. The setup file wires the msw handlers for you; these are
// for a project with its own msw server, a client that takes a `fetch`, or a script outside Vitest.

// A custom judge model's replies (the entry point is the one module of this folder that reaches
// up into the judge: it only re-exports)
export { cached } from '../judge/cassette-bridge'
export type { CassetteFetchOptions } from './agents/fetch-adapter'
// Agents' model calls
export { createCassetteFetch } from './agents/fetch-adapter'
export type { CassetteHandlerOptions } from './agents/msw-handlers'
export { createCassetteHandlers } from './agents/msw-handlers'
export type { MswServerLike } from './agents/msw-server'
export { attachRubricate } from './agents/msw-server'
