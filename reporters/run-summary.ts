// Pure: the numbers of the run summary (ARCHITECTURE.md §9), from the collected records.

import type { ModelPrice } from '../src/config/resolve-config'
import { estimateCost } from '../src/judge/price-table'
import type { AgentCallCounts, CassetteMissRecord } from '../src/records/records'
import { allRecords, type EvalSuiteReport, type RunReport } from './collect-run'

/** The run summary as data; the JSON report holds it as is. */
export interface RunSummary {
  /** The `describeEval` suites: rows passed, rate, gate, mean score per scorer. Absent without any. */
  evals?: EvalSuiteReport[] | undefined
  /** The assertions (rubric, scorer and calibration matchers); loops are counted apart. */
  assertions: { total: number; passed: number; failed: number; errored: number }
  /** The assertions by matcher kind (only kinds that occur). */
  assertionKinds?: { rubric?: number; scorer?: number; calibration?: number } | undefined
  /** The `runUntilComplete` loops: a loop that ends incomplete need not fail its test. */
  loops?: { total: number; complete: number; incomplete: number; errored: number } | undefined
  criteria: { total: number; met: number; requiredUnmet: number; optionalUnmet: number }
  judge: {
    /** Every judge call, failed ones included: `replayed + recorded + live + failed`. */
    calls: number
    /** Calls that got their reply, by where it came from. */
    replayed: number
    recorded: number
    live: number
    /** Calls that ended in an error (whatever they sent first). */
    failed: number
    /**
     * Requests sent live, retries and those of failed calls included: what `maxLiveCalls` counts.
     */
    liveRequests: number
    /** Tokens of calls that went to the provider (recorded or live), and of replayed ones. */
    tokens: { live: number; replayed: number }
    /** Estimated cost in US dollars of the calls that went to the provider. */
    cost: number
    /** Models of such calls that have no price: their cost is not in `cost`. */
    unpricedModels: string[]
  }
  /** The agents' own model calls, through the cassettes (absent from files of older runs). */
  agents: AgentCallCounts & { calls: number }
  cassettes: {
    /** Modes the test files ran in. */
    modes: string[]
    misses: (CassetteMissRecord & { file: string })[]
    /** Entries no test used; counted only after a complete run. */
    unused?: number | undefined
    /**
     * `cassettes.match` patterns that matched no request of the run, while some model calls were
     * recorded only because of their provider host (a few named): the pattern is likely wrong.
     */
    unmatchedPatterns?: { patterns: string[]; hostOnly: string[] } | undefined
  }
}

/**
 * Count assertions, criteria, judge calls (failed ones and their requests included), agent calls,
 * tokens, cost and cassette misses of a run.
 * `unused` is passed in: it needs the cassette folder, which a pure function does not read.
 * @internal
 */
export function summariseRun(
  report: RunReport,
  options: {
    prices?: Readonly<Record<string, ModelPrice>> | undefined
    unused?: number | undefined
  },
): RunSummary {
  const records = allRecords(report)
  const assertions = { total: 0, passed: 0, failed: 0, errored: 0 }
  const kinds: NonNullable<RunSummary['assertionKinds']> = {}
  const loops = { total: 0, complete: 0, incomplete: 0, errored: 0 }
  const criteria = { total: 0, met: 0, requiredUnmet: 0, optionalUnmet: 0 }
  const judge: RunSummary['judge'] = {
    calls: 0,
    replayed: 0,
    recorded: 0,
    live: 0,
    failed: 0,
    liveRequests: 0,
    tokens: { live: 0, replayed: 0 },
    cost: 0,
    unpricedModels: [],
  }
  const unpriced = new Set<string>()
  for (const record of records) {
    if (record.kind === 'loop') {
      loops.total++
      if (record.status === 'pass') loops.complete++
      else if (record.status === 'fail') loops.incomplete++
      else loops.errored++
    } else {
      assertions.total++
      kinds[record.kind] = (kinds[record.kind] ?? 0) + 1
      if (record.status === 'pass') assertions.passed++
      else if (record.status === 'fail') assertions.failed++
      else assertions.errored++
    }
    for (const verdict of record.verdicts ?? []) {
      criteria.total++
      if (verdict.satisfied) criteria.met++
      else if (verdict.required) criteria.requiredUnmet++
      else criteria.optionalUnmet++
    }
    for (const call of record.judgeCalls) {
      judge.calls++
      if (call.status === 'failed') judge.failed++
      else judge[call.source]++
      // Records of older runs have no count of their own; their calls made modelCallCount.
      judge.liveRequests +=
        call.liveRequestCount ?? (call.source === 'replayed' ? 0 : call.modelCallCount)
      const tokens = call.usage?.totalTokens ?? 0
      if (call.source === 'replayed') {
        judge.tokens.replayed += tokens
        continue
      }
      judge.tokens.live += tokens
      if (!call.usage) continue
      const cost = estimateCost(call.model, call.usage, options.prices)
      if (cost === undefined) unpriced.add(call.model)
      else judge.cost += cost
    }
  }
  judge.unpricedModels = [...unpriced].sort()
  const modes = new Set<string>()
  const misses: RunSummary['cassettes']['misses'] = []
  const agents: RunSummary['agents'] = { calls: 0, replayed: 0, recorded: 0, live: 0, failed: 0 }
  const configured = new Set<string>()
  const matched = new Set<string>()
  const hostOnly = new Set<string>()
  for (const file of report.files) {
    if (!file.cassettes) continue
    modes.add(file.cassettes.mode)
    const counts = file.cassettes.agentCalls
    if (counts) {
      for (const outcome of ['replayed', 'recorded', 'live', 'failed'] as const) {
        agents[outcome] += counts[outcome]
        agents.calls += counts[outcome]
      }
      if (counts.tokens) {
        agents.tokens ??= { live: 0, replayed: 0 }
        agents.tokens.live += counts.tokens.live
        agents.tokens.replayed += counts.tokens.replayed
      }
    }
    const patterns = file.cassettes.patterns
    for (const pattern of patterns?.configured ?? []) configured.add(pattern)
    for (const pattern of patterns?.matched ?? []) matched.add(pattern)
    for (const call of patterns?.hostOnly ?? []) hostOnly.add(call)
    for (const miss of file.cassettes.misses) misses.push({ ...miss, file: file.file })
  }
  return {
    ...(report.evals ? { evals: report.evals } : {}),
    assertions,
    ...(assertions.total > 0 ? { assertionKinds: kinds } : {}),
    ...(loops.total > 0 ? { loops } : {}),
    criteria,
    judge,
    agents,
    cassettes: {
      modes: [...modes].sort(),
      misses,
      ...(options.unused === undefined ? {} : { unused: options.unused }),
      ...unmatchedPatterns(configured, matched, hostOnly),
    },
  }
}

function unmatchedPatterns(
  configured: Set<string>,
  matched: Set<string>,
  hostOnly: Set<string>,
): { unmatchedPatterns?: { patterns: string[]; hostOnly: string[] } } {
  const patterns = [...configured].filter((pattern) => !matched.has(pattern)).sort()
  if (patterns.length === 0 || hostOnly.size === 0) return {}
  return { unmatchedPatterns: { patterns, hostOnly: [...hostOnly].sort().slice(0, 3) } }
}
