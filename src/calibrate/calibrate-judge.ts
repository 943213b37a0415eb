import { setMaxListeners } from 'node:events'
import { rejectUnknownKeys } from '../config/known-keys'
import { UsageError } from '../errors'
import { judgeLabel, parseJudgeInput } from '../judge/judge-input'
import { messages } from '../messages'
import { outputText } from '../output'
import type { JudgeCall, JudgeInput } from '../records/records'
import { createRubricScorer } from '../rubric/rubric-scorer'
import { currentCallContext, withCallContext } from '../runtime/call-context'
import { type RunChoices, withRunChoices } from '../runtime/run-choices'
import { resolveJudge } from '../runtime/runtime'
import {
  type AgreementMetrics,
  agreementMetrics,
  type JudgedLabel,
  type SelfAgreement,
  selfAgreement,
} from './agreement-metrics'
import { type LabelledExample, loadLabelSet, type ParsedExample } from './label-set'

/** Options of {@link calibrateJudge}. */
export interface CalibrateJudgeOptions {
  /** The judge to calibrate. Default: the judge configured for the run. */
  judge?: JudgeInput | undefined
  /**
   * A `.jsonl` or `.json` labelled set, or its examples. A relative path is resolved against the
   * folder of the test file that calls (as `describeEval`'s data), or the project root outside a test.
   */
  labels: string | readonly LabelledExample[]
  /** Judge every example this many times and take the majority, as `toSatisfyRubric` does. Default `1`. */
  samples?: number | undefined
  /** How each example's criteria are judged, as in `toSatisfyRubric`. Default `'together'`. */
  evaluation?: 'together' | 'separately' | undefined
}

/** One judgement where the judge and the label disagree. */
export interface CalibrationDisagreement {
  /** The row: `labels.jsonl line 7`. */
  where: string
  criterion: string
  required: boolean
  /** `'false pass'`: judged met, labelled unmet; `'false fail'`: the reverse. */
  kind: 'false pass' | 'false fail'
  label: boolean
  verdict: boolean
  /** The judge's reasoning for its verdict. */
  reasoning: string
  /** With `samples > 1`: how many samples judged the criterion met. */
  agreement?: { satisfied: number; total: number } | undefined
  /** The first 200 characters of the judged output. */
  output: string
  note?: string | undefined
  labeler?: string | undefined
}

/** One labelled judgement: the judge's verdict on one criterion of one example. */
export interface CalibrationJudgement {
  where: string
  criterion: string
  label: boolean
  verdict: boolean
}

/** Agreement on one criterion of the labelled set. */
export interface CriterionCalibration {
  criterion: string
  required: boolean
  metrics: AgreementMetrics
  selfAgreement?: SelfAgreement | undefined
}

/** What {@link calibrateJudge} measured. */
export interface CalibrationResult {
  /** The judge's model name, as recorded in judge calls. */
  judge: string
  /** The labelled set: the path as given, or `labels` for an array. */
  source: string
  /** Labelled examples (rows). */
  examples: number
  samples: number
  /** Over every labelled judgement of every criterion. */
  overall: AgreementMetrics
  /** With `samples > 1`: how often the samples agreed with each other. */
  selfAgreement?: SelfAgreement | undefined
  /** Per criterion, in order of first appearance. */
  criteria: CriterionCalibration[]
  /** Worst first: false passes, then false fails; among them, the more samples agreed the worse. */
  disagreements: CalibrationDisagreement[]
  /** Every labelled judgement, in the order of the labelled set. */
  judgements: CalibrationJudgement[]
  /** Every judge call made (or replayed) for the calibration. */
  judgeCalls: JudgeCall[]
}

const OPTION_KEYS = ['judge', 'labels', 'samples', 'evaluation']
// Examples judged at once. Live calls are capped by judgeConcurrency anyway; this bounds the
// promises in flight for a large set.
const POOL = 8

interface Judged extends JudgedLabel {
  example: ParsedExample
  criterion: string
  required: boolean
  reasoning: string
  agreement?: { satisfied: number; total: number } | undefined
  note?: string | undefined
}

/**
 * Measure how well a judge agrees with human labels: run the rubric judge over every labelled
 * example, exactly as `toSatisfyRubric` would (through the cassettes, so a second run replays
 * offline), and compare its verdicts with the labels.
 *
 * @example
 * const result = await calibrateJudge({ judge: 'openai/gpt-4.1-mini', labels: 'evals/labels.jsonl' })
 * result.overall.kappa // Cohen's κ, or null when undefined
 * result.overall.falsePass.value // judged met where the label says unmet
 */
export function calibrateJudge(options: CalibrateJudgeOptions): Promise<CalibrationResult> {
  return calibrateJudgeWith(options, {})
}

/** {@link calibrateJudge} with `choices` for its judge calls (`toAgreeWithLabels`'s cassette mode). @internal */
export async function calibrateJudgeWith(
  options: CalibrateJudgeOptions,
  choices: RunChoices,
): Promise<CalibrationResult> {
  if (typeof options !== 'object' || options === null) {
    throw new UsageError(messages.configNotObject('calibrateJudge()', options))
  }
  rejectUnknownKeys('calibrateJudge() options', options, OPTION_KEYS)
  const samples = options.samples ?? 1
  if (!Number.isInteger(samples) || samples < 1) {
    throw new UsageError(messages.notPositiveInteger('calibrateJudge() option "samples"', samples))
  }
  const judge = resolveJudge(options.judge)
  const model = judgeLabel(parseJudgeInput(judge))
  // The test and signal its edge (`toAgreeWithLabels`) handed down, else the running test's.
  const context = currentCallContext()
  const test = choices.test ?? context.test
  const set = await loadLabelSet(options.labels, test?.file)
  const calls: JudgeCall[][] = []
  const judged: Judged[][] = []
  let next = 0
  let failed = false
  const worker = async (): Promise<void> => {
    // After a failure no new example starts: the calibration rejects anyway, and a live judge
    // would be paid for verdicts nobody reads.
    while (next < set.examples.length && !failed) {
      const index = next++
      const example = set.examples[index] as ParsedExample
      const scorer = createRubricScorer({
        judge,
        criteria: example.criteria.map(({ description, required }) => ({ description, required })),
        options: { samples, evaluation: options.evaluation },
      })
      const result = await scorer
        .run(
          withRunChoices(
            { input: example.input, output: example.output, groundTruth: example.reference },
            exampleChoices,
          ),
        )
        .catch((error: unknown) => {
          failed = true
          throw error
        })
      calls[index] = result.judgeCalls ?? []
      judged[index] = result.verdicts.map((verdict, position) => {
        const labelled = example.criteria[position] as ParsedExample['criteria'][number]
        return {
          example,
          criterion: labelled.description,
          required: labelled.required,
          verdict: verdict.satisfied,
          label: labelled.label,
          reasoning: verdict.reasoning,
          agreement: verdict.agreement,
          note: labelled.note,
        }
      })
    }
  }
  // The examples' scorer runs are parts of this calibration, not assertions of their own: without
  // `recordsScorerRuns` each would report itself as a plain run, and a test that calibrates would
  // list one scorer record per labelled example (and fail the run's count with them). Their
  // many judge calls share one signal that follows the test's, so the test's signal gets one
  // listener, not one per call in flight (POOL examples × samples × criteria).
  const shared = fanOutSignal(choices.signal ?? context.signal)
  const exampleChoices: RunChoices = { ...choices, test, signal: shared.signal }
  try {
    await withCallContext({ recordsScorerRuns: true, signal: shared.signal }, () =>
      Promise.all(Array.from({ length: Math.min(POOL, set.examples.length) }, worker)),
    )
  } finally {
    shared.release()
  }
  const all = judged.flat()
  const byCriterion = new Map<string, Judged[]>()
  for (const item of all) {
    const list = byCriterion.get(item.criterion) ?? []
    list.push(item)
    byCriterion.set(item.criterion, list)
  }
  const agreementOf = (items: readonly Judged[]) =>
    samples > 1
      ? selfAgreement(
          items.map((item) => item.agreement ?? { satisfied: item.verdict ? 1 : 0, total: 1 }),
          samples,
        )
      : undefined
  return {
    judge: model,
    source: set.source,
    examples: set.examples.length,
    samples,
    overall: agreementMetrics(all),
    ...(samples > 1 && { selfAgreement: agreementOf(all) }),
    criteria: [...byCriterion].map(([criterion, items]) => ({
      criterion,
      required: (items[0] as Judged).required,
      metrics: agreementMetrics(items),
      ...(samples > 1 && { selfAgreement: agreementOf(items) }),
    })),
    disagreements: worstFirst(all.filter((item) => item.verdict !== item.label)).map(
      toDisagreement,
    ),
    judgements: all.map(({ example, criterion, label, verdict }) => ({
      where: example.where,
      criterion,
      label,
      verdict,
    })),
    judgeCalls: calls.flat(),
  }
}

function worstFirst(items: Judged[]): Judged[] {
  const confidence = (item: Judged) =>
    item.agreement
      ? Math.max(item.agreement.satisfied, item.agreement.total - item.agreement.satisfied) /
        item.agreement.total
      : 1
  // Stable: among equals, the labelled set's order.
  return items
    .map((item, order) => ({ item, order }))
    .sort(
      (a, b) =>
        Number(b.item.verdict) - Number(a.item.verdict) ||
        confidence(b.item) - confidence(a.item) ||
        a.order - b.order,
    )
    .map(({ item }) => item)
}

function toDisagreement(item: Judged): CalibrationDisagreement {
  const { example } = item
  return {
    where: example.where,
    criterion: item.criterion,
    required: item.required,
    kind: item.verdict ? 'false pass' : 'false fail',
    label: item.label,
    verdict: item.verdict,
    reasoning: item.reasoning,
    ...(item.agreement && { agreement: item.agreement }),
    output: outputText(example.output).slice(0, 200),
    ...((item.note ?? example.note) !== undefined && { note: item.note ?? example.note }),
    ...(example.labeler !== undefined && { labeler: example.labeler }),
  }
}

// A signal that aborts with `parent`, for many listeners at once: no limit, and one listener on
// the parent, taken off by `release()`.
function fanOutSignal(parent: AbortSignal | undefined): {
  signal: AbortSignal | undefined
  release(): void
} {
  if (parent === undefined) return { signal: undefined, release() {} }
  const controller = new AbortController()
  setMaxListeners(0, controller.signal)
  if (parent.aborted) {
    controller.abort(parent.reason)
    return { signal: controller.signal, release() {} }
  }
  const abort = () => controller.abort(parent.reason)
  parent.addEventListener('abort', abort, { once: true })
  return {
    signal: controller.signal,
    release: () => parent.removeEventListener('abort', abort),
  }
}
