// Pure: the run summary's lines, titled and aligned like Vitest's own summary block.
import { count as countText } from '../src/messages'
import { type Colors, figures } from './figures'
import { evalSummaryRows } from './render-eval'
import type { RunSummary } from './run-summary'

/**
 * The summary lines: one `Eval` per `describeEval` suite (rows passed, rate, gate, mean scores),
 * `Assertions` (assertions by matcher, loops, criteria), `Judge` (calls by source and failed, the requests sent live when
 * retries or failures made more than one a call, tokens, cost), `Agents` (the agents' model calls,
 * when they made any) and, when there is something to say, `Cassettes` (misses, entries unused by a
 * complete run). Nothing when the run made no rubricate assertion, no agent call, and has nothing
 * to say about cassettes.
 * @internal
 */
export function renderSummary(summary: RunSummary, c: Colors): string[] {
  return summaryRows(summary, c).map(([name, text]) => `${c.dim(name.padStart(11))}  ${text}`)
}

/** The line that says where the HTML report page was written, in the summary's layout. @internal */
export function reportPageLine(path: string, c: Colors): string {
  return `${c.dim('Report'.padStart(11))}  ${path}`
}

/** The summary as `[title, text]` rows, for the terminal and for Markdown. @internal */
export function summaryRows(summary: RunSummary, c: Colors): [title: string, text: string][] {
  const lines: [string, string][] = summary.evals ? evalSummaryRows(summary.evals, c) : []
  const sep = c.dim(` ${figures.dot} `)
  const { assertions, criteria, judge, cassettes, loops } = summary
  if (assertions.total > 0 || (loops && loops.total > 0)) {
    const parts: string[] = []
    if (assertions.total > 0) {
      parts.push(
        `${count(assertions.total, 'assertion')}${kindsText(summary.assertionKinds)}: ${paint(assertions.passed, 'passed', c.green)}, ${paint(assertions.failed, 'failed', c.red)}, ${paint(assertions.errored, 'errored', c.red)}`,
      )
    }
    // A loop is not an assertion: it ends complete or not, and the test decides what that means.
    if (loops && loops.total > 0) {
      parts.push(
        `${count(loops.total, 'loop')}: ${paint(loops.complete, 'complete', c.green)}, ${paint(loops.incomplete, 'incomplete', c.yellow)}, ${paint(loops.errored, 'errored', c.red)}`,
      )
    }
    if (criteria.total > 0) {
      parts.push(
        `${count(criteria.total, 'criterion', 'criteria')}: ${paint(criteria.met, 'met', c.green)}, ${paint(criteria.requiredUnmet, 'required unmet', c.red)}, ${paint(criteria.optionalUnmet, 'optional unmet', c.yellow)}`,
      )
    }
    lines.push(['Assertions', parts.join(sep)])
    const judgeParts = [callsText(judge, c)]
    // Said when it is not plain from the calls: retries, or requests of calls that then failed.
    if (judge.liveRequests !== judge.recorded + judge.live) {
      judgeParts.push(`${count(judge.liveRequests, 'request')} sent live`)
    }
    judgeParts.push(
      `tokens ${thousands(judge.tokens.live)} live, ${thousands(judge.tokens.replayed)} replayed`,
      costText(judge, c),
    )
    lines.push(['Judge', judgeParts.join(sep)])
  }
  // Only when an agent made a call: it says whether any went live.
  if (summary.agents.calls > 0) {
    const { tokens } = summary.agents
    const tokensText = tokens
      ? `${sep}tokens ${thousands(tokens.live)} live, ${thousands(tokens.replayed)} replayed`
      : ''
    lines.push(['Agents', `${callsText(summary.agents, c)}${tokensText}`])
  }
  const cassetteParts: string[] = []
  if (cassettes.misses.length > 0) {
    const tests = cassettes.misses.map((miss) =>
      miss.test ? `${miss.file} > ${miss.test}` : miss.file,
    )
    const unique = [...new Set(tests)]
    const shown =
      unique.slice(0, 3).join(', ') + (unique.length > 3 ? `, and ${unique.length - 3} more` : '')
    cassetteParts.push(
      `${c.red(count(cassettes.misses.length, 'miss', 'misses'))} in replay mode: ${shown}`,
    )
  }
  if (cassettes.unused !== undefined && cassettes.unused > 0) {
    cassetteParts.push(
      `${c.yellow(count(cassettes.unused, 'entry', 'entries'))} unused by this complete run ${c.dim('(npx rubricate cassettes prune deletes unused entries)')}`,
    )
  }
  const unmatched = cassettes.unmatchedPatterns
  if (unmatched) {
    const names = unmatched.patterns.map((pattern) => `"${pattern}"`).join(', ')
    cassetteParts.push(
      `${c.yellow(`cassettes.match ${unmatched.patterns.length === 1 ? 'pattern' : 'patterns'} ${names} matched no request`)}, while calls to provider hosts matched none (${unmatched.hostOnly.join(', ')}) ${c.dim('(a string pattern ends the path after a / or a :; these calls were still recorded by their host)')}`,
    )
  }
  if (cassetteParts.length > 0) lines.push(['Cassettes', cassetteParts.join(sep)])
  return lines
}

// `(1 rubric, 2 scorer)`: which matchers the assertions were, unless all were rubrics.
function kindsText(kinds: RunSummary['assertionKinds']): string {
  if (!kinds || ((kinds.scorer ?? 0) === 0 && (kinds.calibration ?? 0) === 0)) return ''
  const parts = (['rubric', 'scorer', 'calibration'] as const)
    .filter((kind) => (kinds[kind] ?? 0) > 0)
    .map((kind) => `${thousands(kinds[kind] ?? 0)} ${kind}`)
  return parts.length > 0 ? ` (${parts.join(', ')})` : ''
}

// A recorded call is a live call that was kept in a cassette: it is counted among the live ones,
// so `live` and the live tokens after it say the same thing.
function callsText(
  calls: { calls: number; replayed: number; recorded: number; live: number; failed: number },
  c: Colors,
): string {
  const failed = calls.failed > 0 ? `, ${c.red(`${thousands(calls.failed)} failed`)}` : ''
  const live = calls.recorded + calls.live
  const kept =
    calls.recorded === 0
      ? ''
      : calls.live === 0
        ? ' (all recorded into cassettes)'
        : ` (${thousands(calls.recorded)} recorded into cassettes)`
  return `${count(calls.calls, 'call')}: ${thousands(calls.replayed)} replayed, ${thousands(live)} live${kept}${failed}`
}

function costText(judge: RunSummary['judge'], c: Colors): string {
  const unpriced = judge.unpricedModels.map((model) => `"${model}"`).join(', ')
  const hint = c.dim('(no price: add it to the prices option of the rubricate plugin)')
  if (unpriced && judge.cost === 0) return `cost unknown for ${unpriced} ${hint}`
  const known = `cost ${dollars(judge.cost)}`
  return unpriced ? `${known} + unknown for ${unpriced} ${hint}` : known
}

/** `$0.00` for nothing, four decimals under a cent, else two. @internal */
export function dollars(value: number): string {
  if (value === 0) return '$0.00'
  if (value < 0.01) return `$${value.toFixed(4)}`
  return `$${value.toFixed(2)}`
}

function count(n: number, one: string, many = `${one}s`): string {
  return `${thousands(n)} ${n === 1 ? one : many}`
}

function paint(n: number, label: string, color: (text: string) => string): string {
  const text = `${thousands(n)} ${label}`
  return n > 0 ? color(text) : text
}

function thousands(n: number): string {
  return countText(n)
}
