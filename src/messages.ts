/**
 * Every user-facing message (ARCHITECTURE.md §11). Each one starts with `[rubricate]` and says what
 * happened, why, and what to do. Values are quoted with double quotes.
 */

import { withoutErrorPage } from './errors'
import { terminalText } from './output-safety/terminal-text'

const PREFIX = '[rubricate]'

/** The parts of a cassette miss message. @internal */
export interface CassetteMissDetails {
  /** `judge call` or `model call (POST <url>)`. */
  what: string
  /** Why the mode is replay: `CI is set`, `RUBRICATE_CASSETTES=replay`... */
  modeReason: string
  /** Appended to the first sentence, e.g. `; the client got an HTTP 400`. */
  consequence: string
  /** Label/value lines: test, endpoint, model, key, nearest, differs. */
  facts: [string, string][]
  /** The command that records the entry, when a test file is known. */
  command: string | undefined
  /** The cassette folder, as shown to the user. */
  dir: string
}

/**
 * Prefix a message and pass it through the terminal gate: every message passes through here, so
 * none prints a key, a URL's credentials or the raw reply of a judge that echoed one, nor a
 * control character or a line that would command the CI runner. @internal
 */
export function format(text: string): string {
  return `${PREFIX} ${terminalText(text)}`
}

/** Render any value for a message: strings quoted, the rest as short JSON. @internal */
export function show(value: unknown): string {
  if (typeof value === 'string')
    return JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value)
  if (value === undefined) return 'undefined'
  if (typeof value === 'function') return 'a function'
  if (typeof value === 'bigint') return `${value}n`
  if (typeof value === 'number') return String(value)
  try {
    // Functions are shown, not dropped: `{ parse() {} }` must not read as `{}`.
    const json = JSON.stringify(value, (_key, inner) =>
      typeof inner === 'function' ? '[function]' : inner,
    )
    if (json === undefined) return String(value)
    return json.length > 80 ? `${json.slice(0, 77)}...` : json
  } catch {
    return Object.prototype.toString.call(value)
  }
}

/** An age in the largest whole unit it reaches: "45 days ago", "3 hours ago", "1 minute ago". */
export function ago(ms: number): string {
  const units: [string, number][] = [
    ['day', 86_400_000],
    ['hour', 3_600_000],
    ['minute', 60_000],
  ]
  for (const [unit, size] of units) {
    const amount = Math.floor(ms / size)
    if (amount >= 1) return `${amount} ${unit}${amount === 1 ? '' : 's'} ago`
  }
  return 'less than a minute ago'
}

/**
 * A count with thousands separators, as `toLocaleString('en-US')` writes an integer, without
 * loading ICU's number formats in every process that prints a count (docs/guide/benchmarks.md).
 * @internal
 */
export function count(value: number): string {
  if (!Number.isSafeInteger(value)) return String(value)
  const digits = String(Math.abs(value))
  let out = digits.slice(0, digits.length % 3 || 3)
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`
  return value < 0 ? `-${out}` : out
}

export function bytes(value: number): string {
  if (value < 1024) return `${value} B`
  if (value < 1024 * 1024) return `${(value / 1024).toFixed(1)} KB`
  return `${(value / 1024 / 1024).toFixed(1)} MB`
}

export function tally(counts: Record<string, number>): string {
  const parts = Object.entries(counts).map(([name, n]) => `${name} ${count(n)}`)
  return parts.length ? parts.join(' · ') : 'none'
}

/** `0.9` as `90%`, `11 / 12` as `91.7%`. @internal */
export function percent(share: number): string {
  const value = Math.round(share * 1000) / 10
  return `${value}%`
}

export function list(values: readonly string[]): string {
  return values.map((v) => `"${v}"`).join(', ')
}

function rejectionHint(status: number): string {
  if (status === 401 || status === 403)
    return 'Check the API key (OPENAI_API_KEY, or apiKey in the judge object) and its permissions.'
  if (status === 404) return 'Check the model name and the baseURL of the judge.'
  return 'Check the judge configuration (model, temperature, structuredOutput) against what the endpoint supports.'
}

/**
 * A cause's message without its own `[rubricate]` prefix and error-page link, so wrapped messages
 * read as one (the wrapping error links to its own page).
 */
function causeText(cause: unknown): string {
  const text = withoutErrorPage(cause instanceof Error ? cause.message : String(cause))
  return text.startsWith(`${PREFIX} `) ? text.slice(PREFIX.length + 1) : text
}

function sentence(text: string): string {
  return /[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`
}

/** The catalogue of messages, grouped by the part of rubricate that raises them. */
// The cassette-folder options every `rubricate cassettes` command takes, said once.
export const CLI_DIR_OPTION =
  "  --dir <folder>     the cassette folder (default: the rubricate plugin's cassettes.dir in the Vitest config, else __cassettes__)"
export const CLI_CONFIG_OPTION =
  '  --config <file>    the Vitest config to read it from (default: vitest.config.* or vite.config.* in the current folder)'

/**
 * True when the part that differs between two texts looks like a date, a time or a generated id
 * on both sides: only then is `cassettes.normalize` the likely fix for a miss. A reworded
 * criterion ("France" for "Germany") is a change to record, not to normalise.
 * @internal
 */
export function looksLikeDateOrId(before: string, after: string): boolean {
  let start = 0
  while (start < before.length && start < after.length && before[start] === after[start]) start++
  let end = 0
  while (
    end < before.length - start &&
    end < after.length - start &&
    before[before.length - 1 - end] === after[after.length - 1 - end]
  )
    end++
  // The changed characters, widened to the token around them (a date's digits, an id's run).
  const token = (text: string) => {
    const token = /[\w:./+-]/
    let from = start
    let to = text.length - end
    while (from > 0 && token.test(text[from - 1] as string)) from--
    while (to < text.length && token.test(text[to] as string)) to++
    return text.slice(from, to)
  }
  const volatile = (text: string) =>
    /\d{4}-\d{2}-\d{2}|\d{1,2}:\d{2}|\d{1,2}\/\d{1,2}\/\d{2,4}|\d{6,}/.test(text) ||
    (text.length >= 8 && /\d/.test(text) && /[a-z]/i.test(text))
  return volatile(token(before)) && volatile(token(after))
}

export const messages = {
  // configuration
  noJudge: (): string =>
    format(
      [
        'No judge model is configured, so this rubric cannot be judged.',
        'Set one in any of these places (strongest first):',
        "  - the call: toSatisfyRubric(criteria, { judge: 'openai/gpt-4.1-mini' }), createRubricScorer({ judge }) or createScorer({ judge: { model } })",
        '  - the environment: RUBRICATE_JUDGE=openai/gpt-4.1-mini',
        "  - a setup file: configureRubricate({ judge: 'openai/gpt-4.1-mini' })",
        "  - vitest.config: plugins: [rubricate({ judge: 'openai/gpt-4.1-mini' })]",
      ].join('\n'),
    ),
  invalidCassetteMode: (where: string, value: unknown): string =>
    format(
      `${where} is ${show(value)}, which is not a cassette mode. Use one of ${list(['replay', 'auto', 'record', 'off'])}.`,
    ),
  cassettesReRecorded: (ciProvider: string | undefined, onCi: boolean): string =>
    format(
      `vitest runs with -u, so cassettes are re-recorded${onCi ? ` on CI${ciProvider ? ` (${ciProvider})` : ''} too` : ''}: every judge and agent call goes live and replaces its recorded reply. Run without -u to replay them, or set RUBRICATE_CASSETTES to choose a mode.`,
    ),
  invalidChoice: (where: string, value: unknown, choices: readonly string[]): string =>
    format(`${where} is ${show(value)}, which is not supported. Use one of ${list(choices)}.`),
  notHostList: (where: string, value: unknown): string =>
    format(
      `${where} is ${show(value)}, which is not a list of host names. Give host names such as ["llm.internal.example.com", "*.my-gateway.example"].`,
    ),
  badHostEntry: (where: string, value: unknown, problem: string): string =>
    format(
      `${where} is ${show(value)}, which ${problem}. An entry is a host name alone, matched against each request's host (its subdomains too; "*" stands for part of one label): write "llm.internal.example.com" for "https://llm.internal.example.com:8443/v1", or "*.my-gateway.example", with no scheme, port or path.`,
    ),
  notBoolean: (where: string, value: unknown): string =>
    format(`${where} is ${show(value)}, which is not a boolean. Use true or false.`),
  notFunctionResult: (where: string, value: unknown): string =>
    format(
      `${where} returned ${show(value)}, not a string. It is called with each string of a request body and must return the string to key in its place.`,
    ),
  notFunction: (where: string, value: unknown): string =>
    format(
      `${where} is ${show(value)}, which is not a function. Give a function from a string of the request to the string to key, e.g. (text) => text.replace(/\\d{4}-\\d\\d-\\d\\d/g, '<date>').`,
    ),
  unknownOption: (
    where: string,
    key: string,
    known: readonly string[],
    nearest: string | undefined,
  ): string =>
    format(
      nearest === undefined
        ? `${where} got an unknown option "${key}". Known options: ${list(known)}. Check the spelling.`
        : `${where} got an unknown option "${key}". Did you mean "${nearest}"? Known options: ${list(known)}.`,
    ),
  configNotObject: (where: string, value: unknown): string =>
    format(`${where} expects an options object, but got ${show(value)}.`),
  notPositiveInteger: (where: string, value: unknown): string =>
    format(`${where} must be a positive integer, but is ${show(value)}.`),
  notPositiveNumber: (where: string, value: unknown): string =>
    format(`${where} must be a number >= 0, but is ${show(value)}.`),

  // plugin
  pluginOptionNotSerializable: (option: string, what: string): string =>
    format(
      `rubricate() plugin option "${option}" is ${what}, which cannot be passed from vitest.config to the test workers. Set it with configureRubricate({ ${option.split('.')[0]}: ... }) in a setup file instead.`,
    ),

  // agent output and input
  outputIsPromise: (): string =>
    format(
      'The value under test is a Promise, so there is nothing to judge yet. Await it first (`expect(await agent(input))`), or use `.resolves` (`await expect(agent(input)).resolves.toSatisfyRubric(...)`).',
    ),
  outputTextIsPromise: (): string =>
    format(
      "The value under test has a `text` that is a Promise (a streaming result, such as the AI SDK's streamText or a Mastra stream), so its text is not known yet. Await the text first: `expect(await result.text)`.",
    ),
  valueUnreadable: (what: string, cause: unknown): string =>
    format(
      `${what} could not be read as text for the judge: reading it threw ${show(withoutErrorPage(cause instanceof Error ? cause.message : String(cause)))}. Pass a string, or a plain object or array whose fields can be read.`,
    ),
  toolCallsPromise: (): string =>
    format(
      'The value under test is a Promise, so its tool calls are not known yet. Await it first: `expect(await agent.generate(...)).toHaveCalledTool(...)`.',
    ),
  toolCallsStreaming: (): string =>
    format(
      "The value under test is a streaming result (the AI SDK's streamText or a Mastra stream) whose steps are not known yet. Pass its steps once the stream has finished: `expect(await result.steps).toHaveCalledTool(...)`.",
    ),
  inputIsPromise: (): string =>
    format(
      'The `input` is a Promise, so the judge cannot be shown the task. Await it before passing it: `{ input: await input }`.',
    ),

  // matchers
  matcherNotAwaited: (matcher: string): string =>
    format(
      `expect(...).${matcher}() was not awaited, so the test finished before the judge's verdict. Write \`await expect(output).${matcher}(...)\`. The lint rule vitest/valid-expect with { alwaysAwait: true, asyncMatchers: ['toSatisfyRubric', 'toPassScorer'] } catches this.`,
    ),
  matcherUndecided: (hint: string, code: string, message: string): string =>
    `${hint}\n\nThis assertion could not be decided, so it fails with or without .not (${code}):\n${message}`,
  emptyRubric: (value: unknown): string =>
    format(
      `toSatisfyRubric() got an empty rubric (${show(value)}), so there is nothing to judge. Pass at least one criterion: a string with one criterion per line, or a list.`,
    ),
  invalidCriteria: (value: unknown): string =>
    format(
      `toSatisfyRubric() expects criteria as a string (one per line), a list of strings or { description, required? } objects, or a rubric scorer, but got ${show(value)}.`,
    ),
  invalidScorer: (matcher: string, value: unknown): string =>
    format(
      `${matcher}() expects a scorer (an object with a run() method, from createScorer() or createRubricScorer()), but got ${show(value)}.`,
    ),
  matcherNoRubric: (matcher: string, id: string): string =>
    format(
      `${matcher}(): the rubric scorer "${id}" found no rubric, so it passed by default without judging anything. Give it criteria (createRubricScorer({ criteria })), or pass one at run time (requestContext: { rubric }).`,
    ),
  matcherNotScorable: (
    matcher: string,
    id: string,
    step: string | undefined,
    reason: string | undefined,
  ): string =>
    format(
      `${matcher}(): the scorer "${id}" marked the output as not scorable${step ? ` in its ${step} step` : ''}${reason ? `: ${reason}` : ''}. An unscored output is neither a pass nor a fail; change the input or the scorer so it can be scored.`,
    ),
  matcherNoScore: (matcher: string, id: string, score: unknown): string =>
    format(
      `${matcher}(): the scorer "${id}" returned ${show(score)} as its score, which is not a number. A scorer's run() must resolve to { score: number, ... }.`,
    ),
  rubricOptionsWithScorer: (keys: readonly string[]): string =>
    format(
      `toSatisfyRubric() got a scorer as its rubric, so the options ${keys.map((k) => `"${k}"`).join(', ')} have no effect there. Set them on the scorer: createRubricScorer({ judge, criteria, options: { samples, evaluation } }).`,
    ),
  toolNameNotString: (value: unknown, matcher = 'toHaveCalledTool'): string =>
    format(`${matcher}() expects the tool's name as a non-empty string, but got ${show(value)}.`),
  toolResultMissing: (name: string, position: number): string =>
    format(
      `Call ${position} of the tool "${name}" has no result in the value under test, so rubricate cannot tell what it returned (reading it as "returned nothing" would let \`.not.toHaveToolResult(...)\` pass by accident). Pass the whole trajectory, tool results included: a LangGraph state or its \`messages\` (ToolMessages), an AI SDK result or its steps, an Agents SDK result, or the message list with the tool messages.`,
    ),
  toolResultNegated: (name: string, withResult: boolean, position: number): string =>
    `Expected no call of the tool "${name}" to return ${withResult ? 'this result' : 'a result'}, but call ${position} did.`,
  toolResultAbsent: (name: string, withResult: boolean, calls: number): string =>
    calls === 0
      ? `Expected a call of the tool "${name}" to return ${withResult ? 'this result' : 'a result'}, but the tool was not called.`
      : `Expected a call of the tool "${name}" to return ${withResult ? 'this result' : 'a result'}, but none of its ${calls} call${calls === 1 ? '' : 's'} did.`,
  notInterrupted: (): string =>
    'Expected the run to be paused (at a LangGraph interrupt() or an Agents SDK approval), but it is not.',
  interruptedNegated: (pending: number): string =>
    `Expected the run not to be paused, but it waits on ${pending} interrupt${pending === 1 ? '' : 's'}.`,
  noStructuredResponse: (): string =>
    'Expected a structured response, but the run gave none (no `structuredResponse`, `parsed`, structured `finalOutput`, `output` or `object`).',
  structuredSchemaIssues: (issues: readonly string[]): string =>
    `Expected the structured response to match the schema, but it does not: ${issues.map((issue) => JSON.stringify(issue)).join(', ')}.`,
  structuredDiffers: (): string =>
    'Expected the structured response to equal the expected value, but it differs.',
  structuredMatchedNegated: (): string =>
    'Expected the structured response not to match, but it does.',
  structuredSchemaAsync: (): string =>
    format(
      'toHaveStructuredResponse() got a schema whose validation is asynchronous; the matcher is synchronous. Validate it yourself: `expect((await schema["~standard"].validate(value)).issues).toBeUndefined()`.',
    ),
  toolCallsBadExpected: (matcher: string, value: unknown): string =>
    format(
      `${matcher}() expects a list of tool calls, each a tool name or { name, args?, agent?, handoffTo? }, but got ${show(value)}.`,
    ),
  groundTruthAndExpected: (matcher: string): string =>
    format(
      `${matcher}() got both "groundTruth" and "expected", which are two names for the reference answer. Keep one.`,
    ),
  aggregateWithOneScorer: (): string =>
    format(
      'toPassScorer() option "aggregate" combines several scorers, but got one. Pass a list, toPassScorer([a, b], { aggregate }), or remove the option.',
    ),
  skipOutsideTest: (note: string): string =>
    format(
      `toPassScorer() was asked to skip the test (notScorable: 'skip'), but runs outside a test, where there is nothing to skip (${note}). Assert inside a test, or leave notScorable at 'error'.`,
    ),
  scorerSkipped: (id: string, reason: string | undefined): string =>
    `[rubricate] skipped: the scorer "${id}" could not score the output${reason ? `: ${reason}` : ''}`,
  invalidThreshold: (value: unknown): string =>
    format(`toPassScorer() option "threshold" must be a finite number, but is ${show(value)}.`),
  maxDirectionNeedsThreshold: (where: string): string =>
    format(
      `${where} got direction "max" (lower is better) without a "threshold", so it could not say how low a score must be. Add one, e.g. { direction: 'max', threshold: 0.2 }.`,
    ),
  calibrationNoThreshold: (): string =>
    format(
      'toAgreeWithLabels() needs at least one of minKappa, maxFalsePass, maxFalseFail and minAccuracy: without one it could never fail. For instance: toAgreeWithLabels(labels, { minKappa: 0.6, maxFalsePass: 0.1 }).',
    ),
  calibrationBadThreshold: (name: string, value: unknown, low: number): string =>
    format(
      `toAgreeWithLabels() option "${name}" must be a number from ${low} to 1, but is ${show(value)}.`,
    ),
  calibrationNegated: (): string =>
    format(
      'toAgreeWithLabels() has no .not form: a judge that fails to agree is not something to assert. Remove the .not, and set the thresholds it must meet.',
    ),
  calibrationNotAJudge: (value: unknown): string =>
    format(
      `expect(judge).toAgreeWithLabels() expects a judge as the value under test ('openai/<model>', an OpenAI-compatible endpoint { model, baseURL, ... } or a JudgeModel), but got ${show(value)}.`,
    ),

  // describeEval
  toolCallScorerBadExpected: (value: unknown): string =>
    format(
      `createToolCallScorer() option "expected" must be a list of calls such as [{ name: 'lookup_order', args: { id: 'A1' } }], but holds ${show(value)}.`,
    ),
  trajectoryRubricNoCriteria: (): string =>
    format(
      'createTrajectoryRubric() needs "criteria": what the path of tool calls must satisfy, e.g. "- Looks the order up before refunding it".',
    ),
  evalNeedsName: (value: unknown): string =>
    format(`describeEval() expects a name (a non-empty string) first, but got ${show(value)}.`),
  evalBadData: (value: unknown): string =>
    format(
      `describeEval() option "data" must be a list of rows, a function that returns one (sync or async), or the path of a .json, .jsonl or .csv file, but is ${show(value)}.`,
    ),
  evalDataFileType: (file: string): string =>
    format(
      `describeEval() cannot read the data file "${file}": its name must end in .json, .jsonl or .csv. Rename it, or load it yourself and pass the rows as "data".`,
    ),
  evalDataFileUnreadable: (file: string, reason: string): string =>
    format(
      `describeEval() could not read the data file "${file}": ${reason}. A relative path is resolved against the test file's folder.`,
    ),
  evalDataFileInvalid: (file: string, where: string, reason: string): string =>
    format(`describeEval() could not parse the data file "${file}" (${where}): ${reason}.`),
  evalBadRow: (source: string, index: number, value: unknown): string =>
    format(
      `describeEval(): row ${index + 1} of ${source} is ${show(value)}, not an object. Each row is an object such as { input, expected?, name? }.`,
    ),
  evalNoRows: (source: string): string =>
    format(
      `describeEval(): ${source} holds no rows, so there is nothing to evaluate. Add at least one row.`,
    ),
  evalTaskNotFunction: (value: unknown): string =>
    format(
      `describeEval() option "task" must be a function of the row that returns the output to judge, but is ${show(value)}.`,
    ),
  evalNothingJudges: (): string =>
    format(
      'describeEval() got neither "criteria" nor "scorers", so nothing would judge the outputs. Pass a rubric as "criteria", scorers as "scorers", or both.',
    ),
  evalBadCriteria: (value: unknown): string =>
    format(
      `describeEval() option "criteria" must be a rubric (a string, a list of criteria, or a rubric scorer) or a function of the row that returns one, but is ${show(value)}.`,
    ),
  evalBadScorer: (index: number, value: unknown): string =>
    format(
      `describeEval() option "scorers": item ${index + 1} is ${show(value)}. A scorer is one from createScorer() or createRubricScorer(), or a function ({ input, output, expected }) => number | { score, metadata? } | null; either may sit in a gate entry { scorer, threshold?, direction?, mean?, weight? }.`,
    ),
  evalBadGate: (id: string, option: string, value: unknown): string =>
    format(
      `describeEval() option "scorers": the gate of "${id}" has "${option}" ${show(value)}, which must be a finite number${option === 'weight' ? ' of 0 or more' : option === 'minCoverage' ? ' from 0 to 1' : ''}. For instance { scorer, threshold: 0.8, mean: 0.9, weight: 2 }.`,
    ),
  evalDuplicateScorer: (id: string): string =>
    format(
      `describeEval() option "scorers" holds two scorers named "${id}". Scores and gates are kept by name, so the two would be mixed up: give one another id (a function's name, or its "id" property).`,
    ),
  evalSimulatedUserNoInstructions: (value: unknown): string =>
    format(
      `describeEval() option "simulatedUser" needs "instructions": who the simulated user is and how they write (a string, or a function of the row), but got ${show(value)}. For instance { instructions: 'A customer charged twice, short-tempered, writes in short sentences.' }.`,
    ),
  evalSimulatedUserBadStop: (value: unknown): string =>
    format(
      `describeEval() option "simulatedUser.stop" must be a function of the conversation's messages that returns true to end it, but is ${show(value)}.`,
    ),
  evalBadTurns: (value: unknown): string =>
    format(
      `describeEval(): a row's "turns" must be a non-empty list of turns such as [{ input: 'Hi', criteria?: '- Greets back' }], but is ${show(value)}.`,
    ),
  evalBadRate: (option: string, value: unknown): string =>
    format(
      `describeEval() option "${option}" must be a number from 0 to 1 (the share that must pass), but is ${show(value)}.`,
    ),
  evalBadThreshold: (value: unknown): string =>
    format(`describeEval() option "threshold" must be a finite number, but is ${show(value)}.`),
  evalScorerNoScore: (id: string, value: unknown): string =>
    format(
      `describeEval(): the scorer "${id}" returned ${show(value)}. A scorer function returns a number, { score: number, metadata? }, or null to skip the row.`,
    ),
  evalRowUnscored: (row: string): string =>
    format(
      `describeEval(): every scorer skipped the row "${row}" (returned null), so it was not judged at all. An unjudged row is neither a pass nor a fail: give it a scorer that applies, or remove it from the data.`,
    ),
  evalNeedsSetup: (): string =>
    format(
      "describeEval() judges rows with rubricate's matchers, which are not registered in this run. Add the plugin (plugins: [rubricate()] in vitest.config) or list 'rubricate/setup' in test.setupFiles.",
    ),
  evalRowTrialsFailed: (passed: number, trials: number, trialPassRate: number): string =>
    format(
      `The row passed ${passed} of ${trials} trials, under its trial pass rate of ${percent(trialPassRate)}. Each failing trial is listed above; the first one's failure follows.`,
    ),
  evalGateUnmet: (
    name: string,
    passed: number,
    rows: number,
    passRate: number,
    failedRows: readonly string[],
  ): string =>
    format(
      `The eval "${name}" fails its gate: ${passed} of ${rows} rows passed (${percent(rows === 0 ? 0 : passed / rows)}), under the pass rate of ${percent(passRate)}. Failed rows: ${failedRows.map((row) => `"${row}"`).join(', ')}. Fix the task or the data, or lower "passRate" if this share is acceptable.`,
    ),

  evalMeanGatesUnmet: (
    name: string,
    gates: readonly {
      scorer?: string | undefined
      direction: 'min' | 'max'
      threshold: number
      mean: number | null
      scored?: number | undefined
      total?: number | undefined
      minCoverage?: number | undefined
    }[],
  ): string => {
    const short = (gate: (typeof gates)[number]) =>
      gate.scored !== undefined &&
      gate.total !== undefined &&
      gate.scored < (gate.minCoverage ?? 1) * gate.total - 1e-9
    const text = gates.map((gate) => {
      const what =
        gate.scorer === undefined
          ? 'the weighted mean of its scorers'
          : `the mean of "${gate.scorer}"`
      if (gate.mean === null) return `${what} is unknown (no row was scored)`
      const mean = Math.round(gate.mean * 1000) / 1000
      if (short(gate)) {
        return `${what} (${mean}) is over ${gate.scored} of ${gate.total} trials scored, fewer than its coverage floor of ${percent(gate.minCoverage ?? 1)}`
      }
      return `${what} is ${mean}, ${gate.direction === 'max' ? 'over the maximum' : 'under the minimum'} of ${gate.threshold}`
    })
    const fix = gates.some(short)
      ? ` A mean over part of the rows does not stand for the dataset: make the scorers score every row, or lower the floor ("minCoverage" in the scorer's entry, or the eval's "minCoverage") if skipped rows are expected.`
      : ''
    return format(
      `The eval "${name}" fails its mean ${gates.length === 1 ? 'gate' : 'gates'}: ${text.join('; ')}.${fix} Improve the task on the rows with the worst scores, or change the gate ("mean" in the scorer's entry, or the eval's "mean") if this level is acceptable.`,
    )
  },
  evalBadMean: (value: unknown): string =>
    format(
      `describeEval() option "mean" (the gate on the weighted mean of the scorers) must be a finite number, but is ${show(value)}.`,
    ),
  cassetteFailuresInFile: (
    misses: readonly string[],
    errors: readonly string[],
    judgeErrors: readonly string[] = [],
  ): string =>
    format(
      [
        `This test file fails: ${[
          misses.length > 0
            ? `${misses.length} model call${misses.length === 1 ? '' : 's'} had no cassette to replay`
            : '',
          errors.length > 0
            ? `${errors.length} cassette error${errors.length === 1 ? '' : 's'} occurred`
            : '',
          judgeErrors.length > 0
            ? `${judgeErrors.length} judge call${judgeErrors.length === 1 ? '' : 's'} failed`
            : '',
        ]
          .filter(Boolean)
          .join(
            ' and ',
          )}, and the code under test may have caught the error it got, so no test failed for it.`,
        ...misses,
        ...errors,
        ...judgeErrors,
      ].join('\n\n'),
    ),
  undecidedInTest: (
    underTestFails: boolean,
    errors: readonly { code: string; message: string }[],
  ): string =>
    format(
      [
        `This test fails: ${errors.length === 1 ? 'a call' : `${errors.length} calls`} made during it could not be decided (${[...new Set(errors.map((error) => error.code))].join(', ')}), ${
          underTestFails
            ? 'and test.fails expects a verdict of fail: an undecided verdict is neither a pass nor a fail, so it never counts as the expected failure.'
            : 'and the error was caught (by the code under test, a try/catch or .rejects), so nothing else failed for it. An undecided verdict is never a pass.'
        } A test that means to get this error says so with ${[
          ...new Set(errors.map((error) => `expectUndecided("${error.code}")`)),
        ].join(' and ')} from rubricate/matchers. Otherwise, fix each one as it says:`,
        ...errors.map((error) => error.message),
      ].join('\n\n'),
    ),
  expectedUndecidedNone: (codes: readonly string[]): string =>
    format(
      `This test fails: it called expectUndecided(${codes.map((code) => `"${code}"`).join(', ')}), but no call made during it ended undecided with ${codes.length === 1 ? 'that code' : 'those codes'}. Check that the call you expect to fail is made (and awaited) in this test, or remove expectUndecided.`,
    ),
  expectedUndecidedScopedNone: (code: string): string =>
    format(
      `expectUndecided("${code}", fn): no call made inside fn ended undecided with "${code}". Check that fn makes (and awaits) the call you expect to fail, or remove expectUndecided.`,
    ),
  expectUndecidedBadCode: (code: unknown, codes: readonly string[]): string =>
    format(
      `expectUndecided(code) takes a rubricate error code, but got ${JSON.stringify(code)}. Use one of: ${codes.join(', ')}.`,
    ),
  expectUndecidedOutsideTest: (): string =>
    format(
      'expectUndecided() was called outside a running test, or without the rubricate setup file. Call it inside test(...), with the rubricate plugin (or "rubricate/setup") in vitest.config.',
    ),
  // matcher failure messages (rendered under the matcher hint); a rubric's are in verdict-words.ts
  scorerBelow: (id: string, score: number, threshold: number): string =>
    `Scorer "${id}" scored ${score}; expected at least ${threshold}.`,
  scorerReachedNegated: (id: string, score: number, threshold: number): string =>
    `Scorer "${id}" scored ${score}; expected less than ${threshold}.`,
  scorerAboveMax: (id: string, score: number, threshold: number): string =>
    `Scorer "${id}" scored ${score}; expected at most ${threshold} (direction "max": lower is better).`,
  scorerWithinMaxNegated: (id: string, score: number, threshold: number): string =>
    `Scorer "${id}" scored ${score}; expected more than ${threshold}.`,
  scorerNotPassed: (id: string, score: number): string =>
    `Scorer "${id}" did not pass (score ${score}).`,
  scorerPassedNegated: (id: string, score: number): string =>
    `Scorer "${id}" passed (score ${score}); expected it not to.`,
  failureReason: (reason: string): string => `Reason: ${reason}`,
  failureMetadata: (json: string): string => `Metadata: ${json}`,
  scorersAll: (failed: number, total: number, negated: boolean): string =>
    negated
      ? `Every one of the ${total} scorers passed; expected at least one not to.`
      : `${failed} of ${total} scorers did not pass; each must (aggregate "all").`,
  scorersMean: (
    mean: number,
    threshold: number,
    negated: boolean,
    direction?: 'max' | undefined,
  ): string => {
    const shown = Math.round(mean * 1000) / 1000
    if (direction === 'max') {
      return negated
        ? `The scorers' mean score is ${shown}; expected more than ${threshold}.`
        : `The scorers' mean score is ${shown}; expected at most ${threshold} (aggregate "mean", direction "max").`
    }
    return negated
      ? `The scorers' mean score is ${shown}; expected less than ${threshold}.`
      : `The scorers' mean score is ${shown}; expected at least ${threshold} (aggregate "mean").`
  },
  failureOutput: (preview: string, truncated: boolean): string =>
    `Output: ${JSON.stringify(preview)}${truncated ? ' (first 200 characters)' : ''}`,
  failureOutputJson: (pretty: string, shownLines: number, totalLines: number): string =>
    `Output (JSON${shownLines < totalLines ? `, first ${shownLines} of ${totalLines} lines` : ''}):\n${pretty}`,
  failureJudge: (models: string, sources: string, tokens: number | undefined): string =>
    `Judge: ${models} · ${sources}${tokens === undefined ? '' : ` · ${count(tokens)} tokens`}`,
  calibrationFailed: (judge: string, labels: string): string =>
    `The judge "${judge}" does not agree well enough with the labels in "${labels}":`,
  calibrationHeadline: (
    judge: string,
    labels: string,
    examples: number,
    n: number,
    samples: number,
  ): string =>
    `Judge "${judge}" against the labels in "${labels}": ${examples} example${examples === 1 ? '' : 's'}, ${n} labelled judgement${n === 1 ? '' : 's'}${samples > 1 ? `, ${samples} samples each` : ''}.`,
  calibrationKappaBelow: (kappa: string, min: number): string =>
    `κ ${kappa} is below minKappa ${min}`,
  calibrationKappaUndefined: (reason: string, min: number): string =>
    `κ is undefined (${reason}), so minKappa ${min} cannot be met: label examples the judge should pass and examples it should fail`,
  calibrationRateAbove: (
    name: 'false-pass' | 'false-fail',
    option: string,
    value: string,
    count: number,
    n: number,
    max: number,
  ): string =>
    `the ${name} rate ${value} (${count} of ${n} judgements labelled ${name === 'false-pass' ? 'unmet were judged met' : 'met were judged unmet'}) is above ${option} ${max}`,
  calibrationRateUnmeasured: (
    name: 'false-pass' | 'false-fail',
    option: string,
    max: number,
  ): string =>
    `the ${name} rate cannot be measured, as no judgement is labelled ${name === 'false-pass' ? 'unmet' : 'met'}, so ${option} ${max} cannot be checked: add examples labelled ${name === 'false-pass' ? 'false' : 'true'}`,
  calibrationAccuracyBelow: (value: string, min: number): string =>
    `accuracy ${value} is below minAccuracy ${min}`,
  calibrationDisagreements: (shown: number, total: number): string =>
    total === 0
      ? 'The judge agrees with every label.'
      : `Worst disagreements (${shown} of ${total}):`,
  calibrationKappaNote: (criterion: string, reason: string): string =>
    `κ is undefined for ${criterion}: ${reason}.`,
  calibrationCompare: (trusted: string, other: string): string =>
    `Agreement of "${other}" with "${trusted}" on the same judgements:`,
  calibrationCompareFacts: (
    trusted: string,
    other: string,
    facts: { n: number; agreement: string; kappa: string; passes: number; fails: number },
  ): string =>
    [
      `  agreement ${facts.agreement} · κ ${facts.kappa} · ${facts.n} judgements`,
      `  "${other}" passes where "${trusted}" fails: ${facts.passes}`,
      `  "${other}" fails where "${trusted}" passes: ${facts.fails}`,
    ].join('\n'),
  // The reporter's wording: a recorded call is a live call that was kept in a cassette.
  calibrationJudgeCalls: (replayed: number, recorded: number, live: number): string =>
    `Judge calls: ${replayed} replayed, ${recorded + live} live${recorded === 0 ? '' : live === 0 ? ' (all recorded into cassettes)' : ` (${recorded} recorded into cassettes)`}.`,

  // tool-call matcher failure messages (rendered under the matcher hint)
  toolNotCalled: (name: string, withArgs: boolean, calls: number): string =>
    calls === 0
      ? `Expected a call of the tool "${name}", but no tool was called.`
      : `Expected a call of the tool "${name}"${withArgs ? ' with these arguments' : ''}, but none of the ${calls} tool call${calls === 1 ? '' : 's'} matches.`,
  toolArgsNotJson: (name: string, raw: string): string =>
    format(
      `A call of the tool "${name}" has arguments that are not JSON (${show(raw)}, the raw text the model sent), so rubricate cannot tell whether they hold the expected arguments (reading them as different would let \`.not\` pass although the call was made). Check the call by name alone (\`toHaveCalledTool("${name}")\`), or its raw arguments as a string (\`toHaveCalledTool("${name}", expect.stringContaining(...))\`).`,
    ),
  toolCalledNegated: (name: string, withArgs: boolean, position: number): string =>
    `Expected no call of the tool "${name}"${withArgs ? ' with these arguments' : ''}, but call ${position} is one.`,
  toolCallsMismatch: (expected: number, actual: number, unmatched: number): string =>
    expected !== actual
      ? `Expected ${expected} tool call${expected === 1 ? '' : 's'}, but ${actual} ${actual === 1 ? 'was' : 'were'} made${unmatched > 0 ? `; ${unmatched} expected call${unmatched === 1 ? ' is' : 's are'} unmatched` : ''}.`
      : `The tool calls differ from the expected ones: ${unmatched} of ${expected} expected call${expected === 1 ? ' is' : 's are'} unmatched.`,
  toolCallsMatchedNegated: (): string =>
    'Expected the tool calls to differ from these, but they match.',
  toolCallLabel: (negated: boolean): string =>
    `${negated ? 'Not expected' : 'Expected'} (args: subset)`,
  toolCallsLabel: (negated: boolean, ordered: boolean, mode: string): string =>
    `${negated ? 'Not expected' : 'Expected'} (${ordered ? 'in order' : 'any order'}, args: ${mode})`,
  toolCallsActualLabel: (calls: number): string =>
    `Actual (${calls} call${calls === 1 ? '' : 's'})`,
  toolCallsNone: (): string => '(no tool calls)',

  // runUntilComplete: usage
  loopAgentNotFunction: (value: unknown): string =>
    format(
      `runUntilComplete() expects the agent as a function ({ input, iteration, feedback, history }) => output as its first argument, but got ${show(value)}.`,
    ),
  loopScorersNotList: (value: unknown): string =>
    format(
      `runUntilComplete() expects \`scorers\` to be a list of scorers (objects with a run() method), but got ${show(value)}. Pass \`scorers: []\` to run without any.`,
    ),
  loopScorerInvalid: (index: number, value: unknown): string =>
    format(
      `runUntilComplete() scorers[${index}] is ${show(value)}, which has no run() method. Pass a scorer from createScorer() or createRubricScorer(), or any object with run().`,
    ),

  // runUntilComplete (its feedback to the agent is in src/loop/loop-feedback.ts)
  loopNoRubric: (id: string): string =>
    format(
      `runUntilComplete(): the rubric scorer "${id}" found no rubric, so it would pass by default without judging anything and end the loop at once. Give it criteria (createRubricScorer({ criteria })), or pass one to the loop: runUntilComplete(agent, { requestContext: { rubric } }). Check the spelling of "rubric".`,
    ),

  // judge
  invalidJudge: (value: unknown): string =>
    format(
      `The judge ${show(value)} is not something rubricate can use. Give "<provider>/<model>" (e.g. "openai/gpt-4.1-mini"), Mastra's { id, url?, apiKey? }, an OpenAI-compatible endpoint { model, baseURL?, apiKey? }, an AI SDK model, or a JudgeModel { id, complete(request) }.`,
    ),
  unknownJudgeProvider: (id: string, provider: string, known: readonly string[]): string =>
    format(
      `The judge "${id}" names the provider "${provider}", which rubricate does not know. Use one of ${known.map((name) => `"${name}"`).join(', ')}, or give the endpoint itself: { model, baseURL, apiKey }, or an AI SDK model object.`,
    ),
  judgeKeyMissing: (model: string, variable: string): string =>
    format(
      `The judge "${model}" must make a live call, but ${variable} is not set, so the provider would refuse it. Set ${variable}, or give the key in the judge: { id, apiKey }. Cassettes replay without a key; only live calls need one.`,
    ),
  aiSdkModelVersion: (id: string, version: string, supported: readonly string[]): string =>
    format(
      `The judge "${id}" is an AI SDK model of specification "${version}", which rubricate cannot call. Use a provider package built for AI SDK 5 or 6 (specification ${supported.map((v) => `"${v}"`).join(' or ')}), or give "<provider>/<model>".`,
    ),
  processorAborted: (reason: string | undefined): string =>
    format(
      `A judge processor stopped the judge call${reason ? `: ${reason.replace(/\.$/, '')}.` : '.'} Change the input or output it refused, or the processor.`,
    ),
  processorBadMessages: (id: string | undefined, value: unknown): string =>
    format(
      `The judge input processor${id ? ` "${id}"` : ''} returned ${show(value)} from processInput, which is not a list of { role, content } messages with text content (rubricate's form) nor Mastra's stored messages, { messages, systemMessages } or the message list it was given (a processor written for Mastra). Return the messages it was given, changed.`,
    ),
  processorBadText: (id: string | undefined, value: unknown): string =>
    format(
      `The judge output processor${id ? ` "${id}"` : ''} returned ${show(value)} from processOutputResult, which is neither a string (rubricate's form) nor messages holding an assistant reply with text (a processor written for Mastra). Return the text or the messages it was given, changed.`,
    ),
  invalidEnvJudge: (value: string): string =>
    format(
      `RUBRICATE_JUDGE is ${show(value)}, which is not a judge rubricate can use. Set it to "openai/<model>", e.g. RUBRICATE_JUDGE=openai/gpt-4.1-mini (the endpoint comes from OPENAI_BASE_URL, the key from OPENAI_API_KEY), or unset it to use the judge of your configuration.`,
    ),
  // A secret's value is never shown: only what kind of value it is.
  judgeOptionType: (where: string, key: string, expected: string, got: string): string =>
    format(`${where} option "${key}" must be ${expected}, but is ${got}.`),
  judgeRequestRejected: (model: string, url: string, status: number, detail: string): string =>
    format(
      `The judge "${model}" at "${url}" rejected the request with HTTP ${status}: ${JSON.stringify(detail)}. This is not retried. ${rejectionHint(status)}`,
    ),
  judgeNoApiKeyLive: (model: string, url: string): string =>
    format(
      `The judge "${model}" was to be called live at "${url}" with no API key, so no request was sent (the provider can only answer 401). Set OPENAI_API_KEY, or give the key in the judge object: { model: "${model}", apiKey }; set OPENAI_BASE_URL (or baseURL in the judge object) when the judge is another OpenAI-compatible endpoint. Cassettes replay without a key; only recording needs one.`,
    ),
  missingKeyInReplay: (failures: number, variables: readonly string[]): string =>
    format(
      `${failures === 1 ? 'An error' : `${failures} errors`} of this run came from a model client built without an API key (${variables.join(', ')}). Replaying cassettes needs no real key, but the client refuses to start without one: set a dummy value in the test environment, e.g. ${variables.map((name) => `${name}=sk-replay`).join(' ')}, or in vitest.config's test.env: { ${variables.map((name) => `${name}: 'sk-replay'`).join(', ')} }. Replay never sends it; recording needs the real key.`,
    ),
  judgeNoApiKey: (model: string, url: string): string =>
    format(
      `The judge "${model}" at "${url}" answered HTTP 401 because no API key was set. Set OPENAI_API_KEY, or give the key in the judge object: { model: "${model}", apiKey }. Cassettes replay without a key; only live calls need one.`,
    ),
  judgeRetriesExhausted: (model: string, url: string, problem: string, requests: number): string =>
    format(
      `The judge "${model}" at "${url}" failed with ${problem} after ${requests} ${requests === 1 ? 'request' : 'requests'}. ${
        /ECONNREFUSED/.test(problem)
          ? 'The connection was refused: nothing listens at that address, so waiting will not help. Check the base URL (OPENAI_BASE_URL, or baseURL in the judge object) and that the server runs there.'
          : /ENOTFOUND/.test(problem)
            ? 'The host name of that address was not found (DNS), so waiting will not help. Check the base URL (OPENAI_BASE_URL, or baseURL in the judge object) and that this machine is online.'
            : 'The provider is rate limiting, overloaded or unreachable; try again later, lower judgeConcurrency, or raise maxRetries in the judge object.'
      }`,
    ),
  judgeBadBaseURL: (model: string, url: string, where: string): string =>
    format(
      `The judge "${model}" has the base URL ${show(url)} (${where}), which is not an http(s) URL. Give the endpoint's full URL, such as "https://api.openai.com/v1" or "http://localhost:11434/v1".`,
    ),
  judgeBaseURLCredentials: (model: string, url: string, where: string): string =>
    format(
      `The judge "${model}" has the base URL ${show(url)} (${where}), which holds credentials (user:password@). Requests cannot carry credentials in their URL (fetch refuses them), so no request was made. Remove them from the URL and send them as a header instead, e.g. headers: { authorization: "Basic <base64 of user:password>" } in the judge object, or apiKey for a bearer token.`,
    ),
  judgeBaseURLQuery: (model: string, url: string, where: string): string =>
    format(
      `The judge "${model}" has the base URL ${show(url)} (${where}), which holds a query string. The OpenAI SDK appends "/chat/completions" after it, so requests would go to the wrong path; no request was made. Give the base URL without "?...", and the parameters as query: { name: "value" } in the judge object.`,
    ),
  judgeNotACompletion: (model: string, url: string, what: string): string =>
    format(
      `The judge "${model}" at "${url}" answered HTTP 200, but with ${what} instead of a chat completion. Check that baseURL points at an OpenAI-compatible API (it usually ends in "/v1"), not at a web page, a proxy's login page or another API.`,
    ),
  judgeDeadline: (model: string, url: string, deadlineMs: number, requests: number): string =>
    format(
      `The judge "${model}" at "${url}" gave no usable reply within ${deadlineMs} ms (deadlineMs), after ${requests} ${requests === 1 ? 'request' : 'requests'}, so the call was stopped. The provider is slow or not answering; try again later, or raise deadlineMs (and timeoutMs, the bound of each request) in the judge object.`,
    ),
  judgeAborted: (model: string): string =>
    format(
      `The call to the judge "${model}" was aborted before it finished (for example by the test timeout). If the judge is slow, raise the test's timeout; calls replayed from cassettes answer at once.`,
    ),
  customJudgeFailed: (model: string, cause: unknown): string =>
    format(
      `The judge model "${model}" failed: ${sentence(causeText(cause))} Fix the JudgeModel's complete() function, or check the provider it calls.`,
    ),
  judgeOutputInvalid: (model: string, problem: string, raw: string): string =>
    format(
      `The judge "${model}" replied with output that does not match the expected format, also after one repair attempt that fed the error back. It is reported as an error, neither a pass nor a fail.\nLast problem: ${problem}\nRaw reply: ${JSON.stringify(raw.length > 1000 ? `${raw.slice(0, 997)}...` : raw)}\nTry a stronger judge model, or structuredOutput: "json_schema" if the endpoint supports it.`,
    ),
  judgeOutputReplayed: (message: string, file: string, command: string): string =>
    format(
      `${causeText(message)}\nThis reply was replayed from the cassette entry "${file}", so it fails the same way on every replay. Record the judge's answer again with:\n  ${command}\nor delete the file and run with RUBRICATE_CASSETTES=auto.`,
    ),
  outputSchemaWithoutJsonSchema: (where: string): string =>
    format(
      `${where} is a Standard Schema that cannot describe itself as JSON Schema, which the judge needs. Use a zod 4 schema, or a library that implements Standard JSON Schema ("~standard.jsonSchema").`,
    ),
  notAnOutputSchema: (where: string, value: unknown): string =>
    format(
      `${where} is ${show(value)}, which is not a schema. Give a zod 4 schema or any Standard Schema.`,
    ),

  // scorers
  filterRunNotStrings: (key: string, value: unknown): string =>
    format(
      `filterRun() got ${show(value)} as ${key}, which is not a list of strings. Give prefixes such as ["text", "tool-invocation"].`,
    ),
  scorerRunFailed: (id: string, step: string, cause: unknown): string =>
    format(`Scorer "${id}" failed in step "${step}": ${causeText(cause)}`),
  scorerMissingId: (): string =>
    format(
      'createScorer() needs an "id" (a short, stable name such as "tone"). Add { id } to its options.',
    ),
  scorerMissingGenerateScore: (id: string): string =>
    format(
      `Scorer "${id}" has no generateScore step, so it cannot produce a score. Chain .generateScore(...) before calling .run().`,
    ),
  scorerStepDuplicated: (id: string, step: string): string =>
    format(
      `Scorer "${id}" already has a ${step} step. Each step can be set once; build a new scorer from createScorer() instead.`,
    ),
  scorerBadStep: (id: string, step: string, value: unknown): string =>
    format(
      `Scorer "${id}" got ${show(value)} as its ${step} step. Give a function, or a prompt object { description, createPrompt }.`,
    ),
  toMastraScorerNotScorer: (value: unknown): string =>
    format(
      `toMastraScorer() expects a rubricate scorer (an object with run()), such as createScorer(...).generateScore(...) or createRubricScorer(...), but got ${show(value)}. Pass the scorer first and Mastra's createScorer second.`,
    ),
  toMastraScorerNoFactory: (value: unknown): string =>
    format(
      `toMastraScorer() expects Mastra's createScorer as its second argument, but got ${show(value)}. rubricate does not depend on Mastra, so the Mastra scorer is built with Mastra's own factory: import { createScorer } from '@mastra/core/evals' and pass it.`,
    ),
  adaptScorerNotFunction: (value: unknown): string =>
    format(
      `adaptScorer() expects a scorer function, ({ input, output, expected }) => number | { score, metadata }, but got ${show(value)}.`,
    ),
  adaptedScorerBadScore: (id: string, value: unknown): string =>
    format(
      `The scorer "${id}" returned ${show(value)}, which is neither a number nor { score: number | null, metadata? }. Return a score between 0 and 1, or null to mark the output as not scorable.`,
    ),
  adaptedScorerError: (id: string, error: unknown): string =>
    format(
      `The scorer "${id}" reported an error instead of a score: ${show(error instanceof Error ? withoutErrorPage(error.message) : error)}. Check its judge (model, key, base URL); under rubricate, its model calls are recorded and replayed like an agent's.`,
    ),
  adaptedScorerNullScore: (): string => 'the scorer returned a null score',
  scorerBadCalculateScore: (id: string, value: unknown): string =>
    format(
      `Scorer "${id}" got ${show(value)} as calculateScore of its generateScore step. Give a function ({ run, results, analyzeStepResult }) => number.`,
    ),
  scorerSchemaWithoutCalculateScore: (id: string): string =>
    format(
      `Scorer "${id}" has a prompt-object generateScore step with an outputSchema but no calculateScore, so nothing says which part of the judge's answer is the score. Add calculateScore: ({ analyzeStepResult }) => number, or drop outputSchema to have the judge answer { "score": number }.`,
    ),
  scorerCouldNotScore: (id: string, reason: string | undefined): string =>
    `Scorer "${id}" could not score the output${reason ? `: ${reason}` : '.'}`,
  scoreOutOfRange: (
    id: string,
    score: unknown,
    range: readonly [number, number],
    row: string | undefined,
  ): string =>
    format(
      `The scorer "${id}" returned the score ${show(score)}${row === undefined ? '' : ` on the row "${row}"`}, which is not ${typeof score === 'number' && Number.isFinite(score) ? 'within' : 'a finite number in'} its range [${range[0]}, ${range[1]}]. A score outside its range would reach thresholds, means and gates as if it measured something, so the row is an error. Make the scorer return a score from ${range[0]} to ${range[1]}, or declare its range: { scorer, range: [0, 10] } in describeEval's "scorers", { range: [0, 10] } in toPassScorer's options, or a "range" property on the scorer.`,
    ),
  badScoreRange: (where: string, value: unknown): string =>
    format(
      `${where} is ${show(value)}, which is not a score range. Give two finite numbers, the lowest score first: [0, 10].`,
    ),
  scorerBadScore: (id: string, value: unknown): string =>
    format(
      `Scorer "${id}" produced the score ${show(value)} in generateScore, which is not a finite number. Return a number.`,
    ),
  scorerRunNotObject: (id: string, value: unknown): string =>
    format(`Scorer "${id}".run() expects { input?, output, ... }, but got ${show(value)}.`),
  scriptedJudgeExhausted: (length: number, index: number): string =>
    format(
      `scriptedJudge() got call #${index + 1}, but its script has only ${length} ${length === 1 ? 'reply' : 'replies'}. Add replies to the script, or pass a function.`,
    ),

  // rubrics
  rubricNotCriteria: (where: string, value: unknown): string =>
    format(
      `${where} is ${show(value)}, which is not a rubric. Give a string with one criterion per line, or a list of criteria (strings or { description, required? }).`,
    ),
  rubricBadItem: (where: string, index: number, value: unknown): string =>
    format(
      `${where} has ${show(value)} as item ${index + 1}, which is not a criterion. Give a string, or { description, required? }.`,
    ),
  rubricBadWeight: (where: string, position: string, value: unknown): string =>
    format(
      `${where} gives the criterion at ${position} the weight ${show(value)}. A weight is a number > 0 (default 1): its share of the score under scoring: 'fraction'.`,
    ),
  rubricEmptyCriterion: (where: string, position: string): string =>
    format(
      `${where} has an empty criterion (${position}). Write what the output must do, or remove the entry.`,
    ),
  rubricDuplicateCriterion: (
    where: string,
    description: string,
    first: string,
    second: string,
  ): string =>
    format(
      `${where} lists the criterion ${show(description)} twice (${first} and ${second}). Remove one, or reword them so that each checks something different.`,
    ),
  rubricEmpty: (): string =>
    format(
      'createRubricScorer() got criteria with no criterion in them. Write at least one criterion, or leave `criteria` out to take the rubric from each run (requestContext, additionalContext or input).',
    ),
  rubricBadScale: (value: unknown): string =>
    format(`createRubricScorer() options.scale must be a number > 0, but is ${show(value)}.`),
  rubricThresholdWithoutFraction: (): string =>
    format(
      "createRubricScorer() options.threshold applies to partial credit only: add scoring: 'fraction' (the weighted share of criteria met must reach the threshold), or remove the threshold (the default rule passes when every required criterion is met).",
    ),
  rubricBadThreshold: (value: unknown): string =>
    format(
      `createRubricScorer() options.threshold is a share of the criteria met: a number > 0 and <= 1, but is ${show(value)}.`,
    ),
  rubricJudgeAndModel: (): string =>
    format(
      'createRubricScorer() got both `judge` and `model`, which are two names for the same option. Keep one.',
    ),

  // calibration: labelled sets, calibrateJudge, toAgreeWithLabels
  labelsUnreadable: (path: string, reason: string): string =>
    format(
      `Could not read the labelled set "${path}": ${reason}. Give the path of a .jsonl or .json file: inside a test, relative to the test file's folder; outside one (the CLI), relative to the project root; or absolute.`,
    ),
  labelsNotBesideTest: (path: string, testFile: string, fromTest: string | undefined): string =>
    format(
      `Could not read the labelled set "${path}": there is no such file next to the test file "${testFile}". Inside a test a relative path is resolved against the test file's folder, as describeEval's data is${fromTest ? `; the file exists relative to the project root, where older versions looked: write "${fromTest}"` : ''}. Or give an absolute path (e.g. new URL('./labels.jsonl', import.meta.url).pathname).`,
    ),
  labelsBadExtension: (path: string): string =>
    format(
      `The labelled set "${path}" is neither .jsonl nor .json, so rubricate cannot tell how to read it. Name it .jsonl (one example a line) or .json (an array of examples).`,
    ),
  labelsBadJson: (where: string, reason: string): string =>
    format(
      `${where} is not valid JSON (${reason}). Each example is one JSON object, for instance {"output": "...", "criterion": "Gives a timeframe", "label": false}.`,
    ),
  labelsNotArray: (where: string, value: unknown): string =>
    format(
      `${where} holds ${show(value)}; a .json labelled set is an array of examples. Write [{"output": "...", "criterion": "...", "label": true}, ...], or use .jsonl with one example a line.`,
    ),
  labelsBadRow: (where: string, problem: string): string =>
    format(
      `${where}: ${problem}. A labelled example is {"output", "input"?, "reference"?, "criterion" and "label" (true or false), or "criteria": [{"criterion", "label"}], "note"?, "labeler"?}.`,
    ),
  labelsEmpty: (source: string): string =>
    format(
      `The labelled set ${source} holds no example, so there is nothing to calibrate against. Add at least one labelled example (blank lines are skipped).`,
    ),
  calibrateBadLabels: (value: unknown): string =>
    format(
      `calibrateJudge() option "labels" is ${show(value)}. Give the path of a .jsonl or .json labelled set, or an array of labelled examples.`,
    ),

  // testing helpers
  fakeScriptExhausted: (length: number, index: number): string =>
    format(
      `startFakeOpenAI() got request #${index + 1}, but its reply list has only ${length} entries. Add replies to the list, or pass a function as \`reply\`.`,
    ),
  fakeUnsupportedPath: (path: string): string =>
    format(
      `The fake OpenAI server does not implement "${path}" for text replies (it speaks /chat/completions, /completions, /responses, /embeddings and /api/chat). Return fakeReply.raw({ status, body }) for other paths.`,
    ),
  fakeJudgeNotRubric: (path: string): string =>
    format(
      `fakeRubricJudge() got a request to "${path}" that is not a rubric prompt, and answers only those. Give it { otherwise } for other requests (an agent's calls, a scorer step's prompt).`,
    ),
  fakeJudgeNoRule: (criteria: readonly string[]): string =>
    format(
      `fakeRubricJudge() has no rule for ${criteria.map((criterion) => `"${criterion}"`).join(', ')}. Add one under the criterion's exact text, or pass one function that decides every criterion.`,
    ),
  fakeEmbeddingElsewhere: (path: string): string =>
    format(
      `The fake OpenAI server was given fakeReply.embedding() for a request to "${path}", but only /embeddings answers with vectors. Return fakeReply.text(...) for other paths (a reply function can choose by request.path).`,
    ),

  // complete runs and prune (ARCHITECTURE.md §7.9): why a run is not complete, in fragments
  incomplete: {
    failed: (): string => 'it did not pass',
    interrupted: (): string => 'it was interrupted',
    testNamePattern: (pattern: string): string => `it was filtered with -t "${pattern}"`,
    fileFilter: (filters: readonly string[]): string =>
      `it was filtered to files matching ${list(filters)}`,
    excludeFilter: (filters: readonly string[]): string =>
      `it left out files matching ${list(filters)} (--exclude)`,
    notEveryFile: (ran: number, total: number): string =>
      `only ${ran} of ${total} test files ran (a file filter, --changed, --related or --project)`,
    projectFilter: (projects: readonly string[]): string =>
      `it ran only the project${projects.length === 1 ? '' : 's'} ${list(projects)}`,
    shard: (index: number, count: number): string =>
      `it ran one shard (${index}/${count}); merge the shards with --merge-reports for a complete report`,
    skipped: (count: number): string =>
      `${count} test${count === 1 ? ' was' : 's were'} skipped (.skip, .todo, .only or a tag filter)`,
    cassettesOff: (files: number): string =>
      `cassettes were off in ${files} test file${files === 1 ? '' : 's'}, so their use was not recorded`,
  },
  pruneNoRun: (scratchDir: string): string =>
    format(
      `Not pruning: no finished Vitest run is recorded for this project (looked in "${scratchDir}"). Prune deletes the cassette entries that the last complete run did not use, so it needs one: run the whole suite with "npx vitest run" (with the rubricate plugin or reporter), then prune again.`,
    ),
  pruneIncomplete: (finishedAt: string, reasons: readonly string[]): string =>
    format(
      `Not pruning: the last run (finished ${finishedAt}) was not complete: ${reasons.join('; ')}. Prune deletes the cassette entries that the last complete run did not use, so after a partial run it would delete entries that other tests still need. Run the whole suite with "npx vitest run" (no file filter, -t, .only, skip or shard), then prune again.`,
    ),
  pruneNoCassettes: (): string =>
    format(
      'Nothing to prune: the last complete run used no cassette folder. Is the rubricate plugin (or "rubricate/setup") installed in vitest.config?',
    ),
  pruned: (
    dryRun: boolean,
    files: readonly string[],
    total: number,
    dir: string,
    finishedAt: string,
    failedRun = false,
  ): string =>
    format(
      `${dryRun ? 'Would delete' : 'Deleted'} ${files.length} of ${total} cassette entries in "${dir}": ${failedRun ? `the last run (finished ${finishedAt}) ran every test, and the tests that passed and recorded them did not use them` : `the last complete run (finished ${finishedAt}) did not use them`}.${files.map((file) => `\n  ${file}`).join('')}${dryRun ? '\nRun without --dry-run to delete them.' : ''}`,
    ),
  nothingToPrune: (total: number, dir: string, failedRun = false): string =>
    format(
      failedRun
        ? `Nothing to prune in "${dir}": of its ${total} cassette entries, the last run (which had failed tests) proved none unused.`
        : `Nothing to prune in "${dir}": the last complete run used all ${total} cassette entries.`,
    ),
  compareReportUnreadable: (path: string, reason: string): string =>
    format(
      `The report page is written without changes: the previous report "${path}" (compareWith, or RUBRICATE_COMPARE_WITH) could not be read: ${reason}. Point it at the JSON report of an earlier run (test.outputFile.rubricate), or unset it.`,
    ),
  supersededPruned: (files: readonly string[]): string =>
    format(
      `Deleted ${files.length} cassette ${files.length === 1 ? 'entry' : 'entries'} that this run re-recorded (the test recorded a new entry, its request having changed, and no test used the old one): ${files.join(', ')}. Commit the deletion with the new ${files.length === 1 ? 'entry' : 'entries'}; git shows each as a changed or renamed file.`,
    ),
  prunedKeptNewer: (count: number, dir: string): string =>
    format(
      `Kept ${count} unused ${count === 1 ? 'entry' : 'entries'} in "${dir}" written after the last complete run started; a newer run decides about ${count === 1 ? 'it' : 'them'}.`,
    ),
  prunedKeptOthers: (count: number, dir: string): string =>
    format(
      `Kept ${count} unused ${count === 1 ? 'entry' : 'entries'} in "${dir}" recorded by test files that the last complete run does not include (another Vitest config sharing the folder?). A complete run of that config, then prune, decides about ${count === 1 ? 'it' : 'them'}.`,
    ),
  prunedKeptFailed: (count: number, dir: string): string =>
    format(
      `Kept ${count} unused ${count === 1 ? 'entry' : 'entries'} in "${dir}" not recorded by a test that passed: the last run had failed tests, and a test that failed or stopped early may still need ${count === 1 ? 'it' : 'them'}. A run in which every test passes, then prune, decides about ${count === 1 ? 'it' : 'them'}.`,
    ),
  pruneFolderNotUsed: (dir: string, used: readonly string[]): string =>
    format(
      `Not pruning "${dir}": the last run used no entry of that folder, so it proves nothing about it. The run used ${used.length === 0 ? 'no cassette folder' : used.map((folder) => `"${folder}"`).join(', ')}; pass one of them with --dir, or run the suite that uses "${dir}" first.`,
    ),
  scratchUnusable: (path: string, code: string, what: string, remove: string): string =>
    format(
      `Could not write rubricate's scratch files at "${path}" (${code}): ${what}. rubricate keeps its scratch files there (live-call counts, notes between workers, the record of the last run); they are safe to delete. Remove "${remove}" (or make it a writable folder) and run again.`,
    ),
  markerNotWritten: (path: string, reason: string): string =>
    format(
      `Could not record this run in "${path}" (${reason}), so "rubricate cassettes prune" will not know which entries it used. Check that the folder is writable.`,
    ),
  reportNotWritten: (path: string, reason: string): string =>
    format(
      `Could not write the rubricate report to "${path}" (${reason}). Check that the folder is writable.`,
    ),

  // cassettes
  cassetteCorrupt: (file: string, reason: string): string =>
    format(
      `The cassette file "${file}" cannot be used: ${reason}. It was left as it was. Restore it from version control, or delete it and record it again with RUBRICATE_CASSETTES=auto; "npx rubricate cassettes verify" checks every file.`,
    ),
  cassetteWriteFailed: (file: string, reason: string): string =>
    format(
      `Could not write the cassette file "${file}": ${reason}. Recording needs a writable cassette folder; on a read-only checkout run with RUBRICATE_CASSETTES=replay.`,
    ),
  cassetteLinkOutside: (file: string, link: string, target: string): string =>
    format(
      `Did not write the cassette file "${file}": "${link}" is a symbolic link to "${target}", outside the cassette folder, and rubricate writes only inside it (a committed link would let a recording write anywhere). Replace the link with a real folder, or point cassettes.dir at the folder it leads to.`,
    ),
  failedExchangeNotRecorded: (file: string, endpoint: string, status: number): string =>
    format(
      `Did not record the HTTP ${status} reply to this ${endpoint} call over "${file}", which holds a successful reply to the same request: a failed exchange never replaces a good recording. The call itself got the HTTP ${status}; fix its cause (the model name, the endpoint, the key) and record again.`,
    ),
  cassetteReplayedError: (
    file: string,
    endpoint: string,
    status: number,
    recordedBy: string | undefined,
  ): string =>
    format(
      `A ${endpoint} call was answered from "${file}", a recording of an HTTP ${status} error${recordedBy ? ` (recorded by "${recordedBy}")` : ''}. Code that swallows the error can pass its test on a failed call. If the error is not what the test means to record, fix its cause and re-record with RUBRICATE_CASSETTES=record.`,
    ),
  cassetteMissTextChange: (change: { path: string; before: string; after: string }): string =>
    `${change.path} was ${JSON.stringify(change.before)}, is now ${JSON.stringify(change.after)}${
      looksLikeDateOrId(change.before, change.after)
        ? ' (a date or an id? cassettes.normalize can make it constant before keying)'
        : ''
    }`,
  cassetteMissToolResult: (tool: string): string =>
    `what changed is the result of ${tool ? `the tool "${tool}"` : 'a tool'}, fed back to the model: a tool that answers differently on every run (a random number, the clock, a live service) misses again after any re-record. Make the tool deterministic in the test (a fixed seed or clock, a stub of the service), or make the changing part constant with cassettes.normalize.`,
  cassetteMiss: (miss: CassetteMissDetails): string =>
    format(
      [
        `Cassette miss: no recorded reply matches this ${miss.what}, and cassettes are in replay mode (${miss.modeReason}), so no network call was made${miss.consequence}.`,
        ...miss.facts.map(([label, value]) => `  ${`${label}:`.padEnd(10)}${value}`),
        ...(miss.command
          ? ['Record it with:', `  ${miss.command}`, `then commit the new files in ${miss.dir}.`]
          : [
              `Record it by running the same code again with RUBRICATE_CASSETTES=auto, then commit the new files in ${miss.dir}.`,
            ]),
        'Recording calls the model live: it needs its API key (OPENAI_API_KEY for an "openai/..." model) and its real base URL (OPENAI_BASE_URL, when it is not api.openai.com).',
      ].join('\n'),
    ),
  promptVersionChanged: (from: string | undefined, to: string | undefined): string =>
    `the judge's prompt version changed from ${show(from ?? 'none')} to ${show(to ?? 'none')} since the nearest entry was recorded, so every judge cassette needs a deliberate re-record: RUBRICATE_CASSETTES=record npx vitest run, then review the new verdicts.`,
  secretInCassette: (entry: string, label: string, path: string): string =>
    format(
      `Refused to write the cassette entry ${entry}: after redaction it still holds ${label} at "${path}". Nothing was written. Built-in redaction replaces secrets in string values; this one survived (in an object key, or it was put back by your cassettes.redact hook). Remove it in cassettes.redact(entry).`,
    ),
  secretInStream: (entry: string, label: string, path: string): string =>
    format(
      `Refused to write the cassette entry ${entry}: its streamed reply spells out ${label} across several events at "${path}", where no single event holds all of it, so redaction cannot remove it. Nothing was written. The model echoed the secret: change the prompt so that it does not, or remove the pieces in cassettes.redact(entry).`,
    ),
  cassetteMissOccurrence: (occurrence: number): string =>
    `the test's request number ${occurrence} with this exact body; each identical request of a test is answered by the reply recorded for it, in order, and this one was made more often than it was recorded. Record it again, or set cassettes.repeatReplies to true to answer it with the last recorded reply.`,
  cassetteMissRecordedAt: (recorded: string, now: string): string =>
    `at "${recorded}"; this call goes to "${now}" (record against the endpoint that served it, with its base URL set)`,
  cassetteMissKeyFormat: (): string => 'nothing in the body (the key format changed)',
  cassetteMissOtherTest: (recordedBy: string | undefined): string =>
    `nothing: this exact request was recorded by ${recordedBy === undefined ? 'a call outside any test' : `"${recordedBy}"`}, and a test is served only the replies it recorded itself (a renamed or moved test records again)`,
  cassetteMissOtherOccurrence: (recorded: number, made: number): string =>
    `nothing in the body: the entry answers the test's request number ${recorded}, this is number ${made}`,
  redactHookResult: (value: unknown): string =>
    format(
      `Your cassettes.redact hook returned ${show(value)}, not a cassette entry. It is called with an entry ({ request, response }) and must return it, changed or not (or return nothing to keep it as it was); it must not be async.`,
    ),
  normalizeHookFailed: (reason: string): string =>
    format(
      `Your cassettes.normalize hook threw: ${reason}. It is called with each string of a request body (after secret redaction) and must return the string to key in its place. Fix the hook in configureRubricate({ cassettes: { normalize } }).`,
    ),
  redactHookFailed: (reason: string): string =>
    format(
      `Your cassettes.redact hook threw: ${reason}. It is called with the request alone ("response" is undefined) before keying, and with the whole entry before writing; it must return the entry.`,
    ),
  maxLiveCallsReached: (made: number, max: number): string =>
    format(
      `Stopped a live judge call: this run has already made ${made} live judge calls, the limit set by maxLiveCalls (${max}). Raise maxLiveCalls (configureRubricate or the plugin options) if the run is meant to be that large, or replay from cassettes with RUBRICATE_CASSETTES=replay.`,
    ),
  maxCostReached: (spent: number, max: number): string =>
    format(
      `Stopped a live judge call: live judge calls in this run are estimated at $${spent.toFixed(4)}, which reaches maxCost ($${max}). Raise maxCost (configureRubricate or the plugin options) if the run is meant to cost that much, or replay from cassettes with RUBRICATE_CASSETTES=replay.`,
    ),
  maxCostUnpriced: (model: string | undefined, max: number): string =>
    format(
      `Stopped a live judge call: maxCost ($${max}) is set, but ${model ? `the model "${model}" has no known price` : 'the request names no model'}, so its cost could not be counted against the limit. Add its price in US dollars per million tokens to the prices option (configureRubricate or the plugin options), e.g. prices: { "${model ?? 'my-model'}": { input: 0.5, output: 1.5 } }, or replay from cassettes with RUBRICATE_CASSETTES=replay.`,
    ),
  cassetteTooOld: (file: string, ageMs: number, maxAge: string | number): string =>
    format(
      `The cassette entry "${file}" was recorded ${ago(ageMs)}, longer ago than maxAge (${show(maxAge)}). Its reply may no longer match the model; re-record it with RUBRICATE_CASSETTES=record.`,
    ),
  invalidMaxAge: (value: unknown): string =>
    format(
      `cassettes.maxAge is ${show(value)}, which is not a duration. Use milliseconds, or a number with a unit: "30d", "12h", "15m", "2w".`,
    ),
  mswMissing: (what: string, reason: string): string =>
    format(
      `${what} needs msw, which could not be loaded (${reason}). Install it as a dev dependency: npm i -D msw`,
    ),
  reporterAloneNotice: (): string =>
    format(
      `rubricate/reporter is the only reporter of this run, so Vitest's own list of tests and failures is not printed: rubricate's reporter prints only its verdicts and summary, beside Vitest's. List Vitest's reporter too: reporters: ['default', 'rubricate/reporter'] (or use the rubricate plugin, which adds its reporter for you).`,
    ),
  mswAbsentNotice: (): string =>
    format(
      `msw is not installed, so your agents' model calls are not recorded or replayed (the judge's calls, the matchers and the reporter work without it). To record them, install msw as a dev dependency: npm i -D msw`,
    ),
  streamOutlivedTest: (request: string, endedBy: string): string =>
    format(
      `The streamed reply of ${request} had not ended when ${endedBy} finished, so it was not recorded: a stream is recorded only once it ends. If the server never ends it, fix the server or the agent (read it to its end, or abort it); if it is only slow, raise the test's timeout, then record again.`,
    ),
  networkBlocked: (host: string, test: string | undefined, mswInstalled = true): string =>
    format(
      `${test ? `The test "${test}"` : 'A test'} opened a connection to "${host}" in replay mode, and no cassette served it: in replay mode (CI) no connection outside loopback is opened unless cassettes.allowHosts names its host. ${mswInstalled ? "If it is a model call, rubricate never saw it: attach rubricate to your own msw server with attachRubricate(server) (and cassettes.server: 'external'), point the client at the msw-patched fetch, or record it" : 'If it is a model call, rubricate never saw it because msw is not installed, and without msw no agent call is recorded or replayed: install it (npm i -D msw), then record it'} (RUBRICATE_CASSETTES=auto with a key, then commit the cassette folder). If the test needs "${host}" (a database, a CI service container, a staging API), allow it with this line in the rubricate() plugin options or configureRubricate: cassettes: { allowHosts: ['${host}'] }; or, when only your rubric tests need rubricate, give the plugin to their own Vitest project (test.projects) so that the other tests are not guarded.`,
    ),
  telemetryRefused: (target: string, host: string, test: string | undefined): string =>
    format(
      `${test ? `The test "${test}"` : 'A test'} sent a tracing export to "${target}" in replay mode, and it was refused before it left the machine: traces and telemetry (LangSmith, the OpenAI Agents SDK's trace ingest, OpenTelemetry exporters) are never recorded as model calls, and in replay mode (CI) none is sent. Turn the exporter off in tests (LANGSMITH_TRACING=false, OPENAI_AGENTS_DISABLE_TRACING=1, OTEL_SDK_DISABLED=true), point it at a collector on loopback, or let it go out with this line in the rubricate() plugin options or configureRubricate: cassettes: { allowHosts: ['${host}'] }.`,
    ),
  telemetryRefusedByOption: (target: string): string =>
    format(
      `The tracing export to "${target}" was refused: cassettes.telemetry is 'refuse'. Set it to 'pass' (the default) to let traces and telemetry go out outside replay mode.`,
    ),
  providerConnectionRefused: (
    host: string,
    test: string | undefined,
    mswInstalled = true,
  ): string =>
    format(
      `${test ? `The test "${test}"` : 'A test'} opened a connection to the model provider "${host}" in replay mode, and no cassette served it: in replay mode (CI) no connection to a known provider host is ever opened. ${mswInstalled ? "rubricate never saw this call: a client that does not use the global fetch or node:http (a native binding, a custom agent), or a server of your own msw that rubricate is not attached to (attachRubricate(server), with cassettes.server: 'external')" : 'rubricate never saw this call because msw is not installed, and without msw no agent call is recorded or replayed: install it (npm i -D msw)'}. Record it (RUBRICATE_CASSETTES=auto with a key, then commit the cassette folder), or mock the call in the test.`,
    ),
  mswTooOld: (what: string, version: string): string =>
    format(
      `${what} needs msw 2.10 or later, and the installed msw is ${show(version)}. Upgrade it: npm i -D msw@^2.10`,
    ),
  cliDiffNoGit: (ref: string): string =>
    format(
      `"rubricate cassettes diff --against ${ref}" needs a git repository, and the current folder is not in one. Compare two folders instead: rubricate cassettes diff <old> <new>.`,
    ),
  cliDiffOutsideRepo: (dir: string, top: string): string =>
    format(
      `The cassette folder "${dir}" is outside the git repository "${top}", so it has no committed state to compare with. Run the command inside the repository that holds the folder.`,
    ),
  cliDiffBadRef: (ref: string, reason: string): string =>
    format(
      `git cannot read "${ref}" (${reason || 'unknown revision'}). Pass a branch, tag or commit that exists, such as HEAD or main.`,
    ),
  jobSummaryCassetteDiff: (dir: string, ref: string, requiredFlips: number): string =>
    `Verdicts changed by this run's recordings in ${dir} (against ${ref})${requiredFlips ? `: ${requiredFlips} required ${requiredFlips === 1 ? 'verdict' : 'verdicts'} flipped` : ''}`,

  // similarity, grounding, budgets and pairwise preference
  invalidEmbedder: (where: string, value: unknown): string =>
    format(
      `The ${where} ${show(value)} is not an embedding model rubricate can use. Give "openai/<model>" (e.g. "openai/text-embedding-3-small"), an OpenAI-compatible endpoint { model, baseURL?, apiKey? }, an AI SDK embedding model, or { id, embed(texts) }.`,
    ),
  embedderNoKey: (model: string): string =>
    format(
      `The embedding model "${model}" must make a live call, but OPENAI_API_KEY is not set, so the provider would refuse it. Set OPENAI_API_KEY, or give the key in the embedder: { model, apiKey }. Cassettes replay without a key; only live calls need one.`,
    ),
  embedderBadReply: (model: string, asked: number, got: number): string =>
    format(
      `The embedding model "${model}" was asked for ${asked} vectors and gave back ${got} (or an empty one), so nothing can be compared. Check that the model is an embedding model and that its reply holds one vector per input text.`,
    ),
  embeddingsNotComparable: (model: string, a: number, b: number): string =>
    format(
      `The embedding model "${model}" gave vectors of ${a} and ${b} dimensions, or a vector of zeros, which have no angle between them. Use one embedding model for both texts, and check what it returns for an empty text.`,
    ),
  similarityNoExpected: (where: string): string =>
    format(
      `${where} has no text to compare the output with. Give it one: ${where.replace('()', '')}({ expected }), or the run's groundTruth (toPassScorer(scorer, { groundTruth }), a describeEval row's expected).`,
    ),
  similarityBadExpected: (where: string, value: unknown): string =>
    format(
      `${where} option "expected" is ${show(value)}; it must be the text to compare with, a string.`,
    ),
  shareThreshold: (where: string, value: unknown): string =>
    format(`The ${where} is ${show(value)}; it must be a number from 0 to 1.`),
  similarityReason: (what: string, score: number): string => `The ${what} is ${score.toFixed(3)}.`,

  budgetNotObject: (value: unknown, keys: readonly string[]): string =>
    format(
      `toStayWithinBudget() was given ${show(value)} as its budget; it takes an object of at least one limit: ${keys.map((key) => `"${key}"`).join(', ')}. For example: toStayWithinBudget({ maxCalls: 3, maxTokens: 5000 }).`,
    ),
  budgetNotCalls: (value: unknown): string =>
    format(
      `toStayWithinBudget() checks a list of model calls, and was given ${show(value)}. Pass the running test's calls: expect(modelCalls()).toStayWithinBudget(...), or modelCalls({ caller: 'agent' }) for the agent's alone (import { modelCalls } from 'rubricate').`,
    ),
  budgetUnknown: (what: 'cost' | 'latency', call: string): string =>
    format(
      what === 'cost'
        ? `toStayWithinBudget() has a "maxCost" limit, but the call ${call} has no price (its model is not in the price table) or reports no tokens, so its cost is unknown and cannot be counted as free. Add the model to "prices" (configureRubricate({ prices: { "<model>": { input, output } } }), dollars per million tokens), or drop "maxCost".`
        : `toStayWithinBudget() has a latency limit, but the call ${call} has no recorded latency (its cassette entry was recorded before rubricate kept latencies). Re-record it (RUBRICATE_CASSETTES=record), or drop the latency limit.`,
    ),
  budgetSummary: (totals: {
    calls: number
    inputTokens: number
    outputTokens: number
    cost?: number | undefined
    maxLatencyMs?: number | undefined
    totalLatencyMs: number
  }): string =>
    `${count(totals.calls)} model ${totals.calls === 1 ? 'call' : 'calls'}, ${count(totals.inputTokens)} tokens in, ${count(totals.outputTokens)} out${totals.cost === undefined ? '' : `, $${totals.cost.toFixed(4)}`}${totals.maxLatencyMs === undefined ? '' : `, slowest ${Math.round(totals.maxLatencyMs)} ms, ${Math.round(totals.totalLatencyMs)} ms in all`}.`,
  budgetOver: (): string =>
    'Expected the model calls to stay within the budget, and they went over it:',
  budgetWithinNegated: (): string =>
    'Expected the model calls to go over the budget, and they stayed within every limit:',
  budgetOverrun: (limit: string, allowed: number, actual: number, call: string): string =>
    `${limit} ${allowed}: reached ${Number.isInteger(actual) ? actual : actual.toFixed(4)} at call ${call}`,

  groundingNoContext: (where: string): string =>
    format(
      `${where} has no context to judge against. Give it: ${where.replace('()', '')}({ context }), toPassScorer(scorer, { context }), toBeGroundedIn(context), or a describeEval row's "context". An empty context is refused: nothing could be grounded in it.`,
    ),
  groundingNoQuestion: (where: string): string =>
    format(
      `${where} judges against the question, and the run has none. Pass it as "input" (toPassScorer(scorer, { input: question }), a describeEval row's input).`,
    ),
  groundingNothing: (kind: string): string =>
    kind === 'faithfulness'
      ? 'The answer makes no factual claims, so there is nothing to check against the context.'
      : kind === 'answer-relevance'
        ? 'The answer makes no statements, so there is nothing to judge relevant.'
        : 'The context has no passages.',
  groundingReason: (
    kind: string,
    items: readonly { text: string; ok: boolean; reasoning: string }[],
  ): string => {
    const [noun, bad] =
      kind === 'faithfulness'
        ? ['claims', 'not supported by the context']
        : kind === 'answer-relevance'
          ? ['statements', 'not relevant to the question']
          : ['passages', 'not relevant to the question']
    const failing = items.filter((item) => !item.ok)
    const head = `${items.length - failing.length} of ${items.length} ${noun} hold`
    if (failing.length === 0) return `${head}.`
    return `${head}; ${failing.length} ${bad}: ${failing.map((item) => `"${item.text.slice(0, 160)}" (${item.reasoning})`).join('; ')}`
  },

  preferenceNoCriteria: (where: string, value: unknown): string =>
    format(
      `${where} option "criteria" is ${show(value)}; it must say what "better" means, as text (e.g. "More helpful, accurate and concise").`,
    ),
  preferenceNoBaseline: (where: string): string =>
    format(
      `${where} has no baseline to compare the output with. Give one: { baseline: text }, { baseline: baselineFrom("report.json") } for a stored run's outputs, the run's groundTruth, or a describeEval row's "expected".`,
    ),
  preferenceReason: (
    preference: string,
    orders: readonly { first: string; preferred: string; reasoning: string }[],
  ): string =>
    `${preference === 'output' ? 'The output is preferred in both orders' : preference === 'baseline' ? 'The baseline is preferred in both orders' : 'A tie: the two orders do not agree on a preference'}. ${orders.map((order) => `${order.first} shown first: ${order.preferred} preferred (${order.reasoning})`).join('; ')}.`,
  baselineMissing: (file: string, input: string, size: number): string =>
    format(
      `The baseline file "${file}" holds no output for the input "${input.slice(0, 120)}" (it holds ${size} inputs). Record the baseline run with the same inputs, or give this row its baseline another way.`,
    ),
  baselineUnreadable: (file: string, reason: string): string =>
    format(
      `The baseline file "${file}" cannot be read: ${reason}. Give a rubricate JSON report (outputFile.rubricate) or a .jsonl/.json list of { input, output }, with a path relative to the working directory.`,
    ),

  notPreferred: (score: number): string =>
    `Expected the output to be preferred over the baseline in both orders; the preference scored ${score} (1 preferred, 0.5 tie, 0 baseline preferred).`,
  preferredNegated: (score: number): string =>
    `Expected the output not to be preferred over the baseline; it was, in both orders (score ${score}).`,

  // internal
  bug: (what: string): string =>
    format(
      `${what}. This is a bug in rubricate; please report it with the test that triggered it.`,
    ),
}
