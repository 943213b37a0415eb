import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { threadId } from 'node:worker_threads'
import { safeName, scratchDir } from '../config/paths'
import type { ResolvedConfig } from '../config/resolve-config'
import { appendScratchLine } from '../config/scratch-files'
import { LimitError } from '../errors'
import { messages } from '../messages'
import type { TokenUsage } from '../records/records'
import { runtimeState } from '../runtime/state'
import { estimateCost, priceOf } from './price-table'

/**
 * Limits of live judge calls (ARCHITECTURE.md §7.8). `judgeConcurrency` bounds parallel live calls per
 * worker. `maxLiveCalls` and `maxCost` count per run, across workers: each worker appends to its
 * own log in `<scratch>/<runId>/` and sums every worker's log before a call. A call reserves its
 * line before it counts, so concurrent workers never let more than `maxLiveCalls` through. Without
 * a run id (a script outside Vitest) the counts are per process. Nothing is read or written unless
 * a limit is set.
 */

// Calls in flight and waiting, and the counts of a process without a run id: the runtime's
// process part, so that every copy of the module shares one concurrency bound.
const state = runtimeState().process.liveLimits

/**
 * Run one live judge call within the limits. `model` is the model the request names: under
 * `maxCost`, a model with no known price is stopped, as its cost could not be counted.
 * @internal
 */
export async function withLiveLimits<T>(
  config: ResolvedConfig,
  model: string | undefined,
  fn: () => Promise<T>,
): Promise<T> {
  checkRunLimits(config, model)
  await acquire(config.judgeConcurrency)
  try {
    return await fn()
  } finally {
    release()
  }
}

/** Count the cost of a finished live call towards `maxCost`. @internal */
export function addLiveCost(
  config: ResolvedConfig,
  model: string | undefined,
  usage: TokenUsage | undefined,
): void {
  if (config.maxCost === undefined || !model || !usage) return
  const cost = estimateCost(model, usage, config.prices)
  if (!cost) return
  const log = runLog()
  if (log) append(log, `cost ${cost}\n`)
  else state.cost += cost
}

function checkRunLimits(config: ResolvedConfig, model: string | undefined): void {
  const { maxLiveCalls, maxCost } = config
  if (maxLiveCalls === undefined && maxCost === undefined) return
  // An unknown price counted as nothing would let every call through any cap.
  if (maxCost !== undefined && (!model || !priceOf(model, config.prices))) {
    throw new LimitError(messages.maxCostUnpriced(model, maxCost))
  }
  const log = runLog()
  if (maxLiveCalls !== undefined) {
    if (log) append(log, 'call\n')
    else state.calls++
  }
  const totals = log ? readTotals(log) : { calls: state.calls, cost: state.cost }
  if (maxLiveCalls !== undefined && totals.calls > maxLiveCalls) {
    throw new LimitError(messages.maxLiveCallsReached(maxLiveCalls, maxLiveCalls))
  }
  if (maxCost !== undefined && totals.cost >= maxCost) {
    throw new LimitError(messages.maxCostReached(totals.cost, maxCost))
  }
}

function acquire(limit: number): Promise<void> {
  if (state.active < limit) {
    state.active++
    return Promise.resolve()
  }
  return new Promise((resolve) => state.queue.push(resolve))
}

function release(): void {
  const next = state.queue.shift()
  if (next) next()
  else state.active--
}

function runLog(): { folder: string; file: string } | undefined {
  const runId = runtimeState().run.runId
  if (!runId) return undefined
  const folder = join(scratchDir(), safeName(runId))
  return { folder, file: `live-${process.pid}-${threadId}.log` }
}

function append(log: { folder: string; file: string }, line: string): void {
  appendScratchLine(log.folder, log.file, line)
}

function readTotals(log: { folder: string }): { calls: number; cost: number } {
  let calls = 0
  let cost = 0
  let names: string[] = []
  try {
    names = readdirSync(log.folder)
  } catch {
    return { calls, cost }
  }
  for (const name of names) {
    if (!name.startsWith('live-')) continue
    let text = ''
    try {
      text = readFileSync(join(log.folder, name), 'utf8')
    } catch {
      continue
    }
    for (const line of text.split('\n')) {
      if (line === 'call') calls++
      else if (line.startsWith('cost ')) cost += Number(line.slice(5)) || 0
    }
  }
  return { calls, cost }
}
