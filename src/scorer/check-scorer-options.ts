import { rejectUnknownKeys } from '../config/known-keys'
import { UsageError } from '../errors'
import { checkJudgeInput } from '../judge/judge-input'
import { messages } from '../messages'
import type { ScorerStepName } from '../records/records'

// The keys each options object of createScorer accepts, in one place: supporting a new option
// is one more name here (and its handling where it is read). Anything else is a usage error that
// names the nearest key, so a typo never falls back to a default without a word.

/** `createScorer(options)`. */
const SCORER_KEYS = ['id', 'name', 'description', 'judge', 'type', 'prepareRun']

/** `judge` of the scorer and of a prompt step (`ScorerJudgeOptions`). */
const JUDGE_KEYS = [
  'model',
  'instructions',
  'temperature',
  'seed',
  'structuredOutput',
  'jsonPromptInjection',
  'maxRetries',
  'inputProcessors',
  'outputProcessors',
  'errorProcessors',
  'maxProcessorRetries',
]

/** A prompt-object step, per step. */
const PROMPT_STEP_KEYS: Record<ScorerStepName, readonly string[]> = {
  preprocess: ['description', 'createPrompt', 'outputSchema', 'judge'],
  analyze: ['description', 'createPrompt', 'outputSchema', 'judge'],
  // Mastra documents `calculateScore` on a prompt-object generateScore step.
  generateScore: ['description', 'createPrompt', 'outputSchema', 'judge', 'calculateScore'],
  generateReason: ['description', 'createPrompt', 'judge'],
}

/** The values of `type` that rubricate knows. */
const SCORER_TYPES = ['agent']

/** Reject an unknown key anywhere in `createScorer()` options, or an unknown `type`. @internal */
export function checkScorerOptions(options: object): void {
  rejectUnknownKeys('createScorer()', options, SCORER_KEYS)
  const { judge, type } = options as { judge?: unknown; type?: unknown }
  checkJudgeOptions('createScorer() judge', judge)
  if (type !== undefined && !SCORER_TYPES.includes(type as string)) {
    throw new UsageError(messages.invalidChoice('createScorer() type', type, SCORER_TYPES))
  }
}

/** Reject an unknown key in a prompt-object step or in its `judge`. @internal */
export function checkPromptStep(id: string, name: ScorerStepName, step: object): void {
  const where = `The ${name} step of scorer "${id}"`
  rejectUnknownKeys(where, step, PROMPT_STEP_KEYS[name])
  checkJudgeOptions(`${where}: judge`, (step as { judge?: unknown }).judge)
}

function checkJudgeOptions(where: string, judge: unknown): void {
  if (judge === undefined) return
  if (typeof judge !== 'object' || judge === null || Array.isArray(judge)) {
    throw new UsageError(messages.configNotObject(where, judge))
  }
  rejectUnknownKeys(where, judge, JUDGE_KEYS)
  checkJudgeInput((judge as { model?: unknown }).model)
}
