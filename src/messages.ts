/**
 * Every user-facing message (DESIGN section 11). Each one starts with `[rubricate]` and says what
 * happened, why, and what to do. Values are quoted with double quotes.
 */

const PREFIX = '[rubricate]'

/** Prefix a message. @internal */
export function format(text: string): string {
  return `${PREFIX} ${text}`
}

/** Render any value for a message: strings quoted, the rest as short JSON. @internal */
export function show(value: unknown): string {
  if (typeof value === 'string')
    return JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value)
  if (value === undefined) return 'undefined'
  if (typeof value === 'function') return 'a function'
  if (typeof value === 'bigint') return `${value}n`
  try {
    const json = JSON.stringify(value)
    if (json === undefined) return String(value)
    return json.length > 80 ? `${json.slice(0, 77)}...` : json
  } catch {
    return Object.prototype.toString.call(value)
  }
}

function list(values: readonly string[]): string {
  return values.map((v) => `"${v}"`).join(', ')
}

/** The catalogue of messages, grouped by the part of rubricate that raises them. */
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
  invalidChoice: (where: string, value: unknown, choices: readonly string[]): string =>
    format(`${where} is ${show(value)}, which is not supported. Use one of ${list(choices)}.`),
  unknownOption: (where: string, key: string, known: readonly string[]): string =>
    format(
      `${where} got an unknown option "${key}". Known options: ${list(known)}. Check the spelling.`,
    ),
  configNotObject: (where: string, value: unknown): string =>
    format(`${where} expects an options object, but got ${show(value)}.`),
  notPositiveInteger: (where: string, value: unknown): string =>
    format(`${where} must be a positive integer, but is ${show(value)}.`),
  notPositiveNumber: (where: string, value: unknown): string =>
    format(`${where} must be a number >= 0, but is ${show(value)}.`),

  // agent output and input
  outputIsPromise: (): string =>
    format(
      'The value under test is a Promise, so there is nothing to judge yet. Await it first (`expect(await agent(input))`), or use `.resolves` (`await expect(agent(input)).resolves.toSatisfyRubric(...)`).',
    ),
  outputTextIsPromise: (): string =>
    format(
      "The value under test has a `text` that is a Promise (a streaming result, such as the AI SDK's streamText or a Mastra stream), so its text is not known yet. Await the text first: `expect(await result.text)`.",
    ),
  inputIsPromise: (): string =>
    format(
      'The `input` is a Promise, so the judge cannot be shown the task. Await it before passing it: `{ input: await input }`.',
    ),

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

  // runUntilComplete: feedback and reasons (told to the agent, so without the prefix)
  loopScorerThrew: (id: string, error: unknown): string =>
    `Scorer "${id}" threw an error, so the output could not be checked: ${error instanceof Error ? error.message : String(error)}`,
  loopScorerTimedOut: (id: string, ms: number): string =>
    `Scorer "${id}" did not finish within the check timeout of ${ms} ms, so the output could not be checked.`,
  loopScorerNotScorable: (id: string, reason: string | undefined): string =>
    `Scorer "${id}" could not score the output${reason ? `: ${reason}` : '.'}`,
  loopScorerBelowOne: (id: string, score: number | undefined): string =>
    score === undefined
      ? `Scorer "${id}" returned no score.`
      : `Scorer "${id}" scored ${score}; the task is complete at 1.`,
  loopNoScorers: (strategy: 'all' | 'any'): string =>
    strategy === 'any'
      ? 'No scorer is configured, so the "any" strategy can never be met.'
      : 'The task is not complete.',
  loopFeedbackHeading: (id: string): string => `Scorer "${id}":`,

  // testing helpers
  fakeScriptExhausted: (length: number, index: number): string =>
    format(
      `startFakeOpenAI() got request #${index + 1}, but its reply list has only ${length} entries. Add replies to the list, or pass a function as \`reply\`.`,
    ),
  fakeUnsupportedPath: (path: string): string =>
    format(
      `The fake OpenAI server does not implement "${path}" for text replies (it speaks /chat/completions, /responses and /embeddings). Return fakeReply.raw({ status, body }) for other paths.`,
    ),

  // internal
  bug: (what: string): string =>
    format(
      `${what}. This is a bug in rubricate; please report it with the test that triggered it.`,
    ),
}
