import type { MatcherState } from 'vitest'
import type { LabelledExample } from '../src/calibrate/label-set'
import type { CassetteMode } from '../src/config/resolve-config'
import type { JudgeInput } from '../src/records/records'

/** Criteria of a rubric: one per line of a string, or a list. */
export type RubricCriteriaInput =
  | string
  | (
      | string
      | {
          description: string
          required?: boolean | undefined
          id?: string | undefined
          /** Its share of the score with `scoring: 'fraction'`. Default `1`. */
          weight?: number | undefined
        }
    )[]

/** Options of `toSatisfyRubric`. */
export interface ToSatisfyRubricOptions {
  /** The task the output answers (a string or a message list); shown to the judge. */
  input?: unknown
  /** A reference answer the judge may compare the output with (Mastra's name). */
  groundTruth?: unknown
  /** evalite's name for `groundTruth`; give one of the two. */
  expected?: unknown
  /** A contract, policy or other material the judge judges the output against. */
  context?: unknown
  /** The judge for this assertion; wins over every other setting. */
  judge?: JudgeInput | undefined
  /** Judge the rubric this many times and take a per-criterion majority. Default `1`. */
  samples?: number | undefined
  /** One judge call for the whole rubric (default), or one per criterion. */
  evaluation?: 'together' | 'separately' | undefined
  /**
   * `'all'` (default): every required criterion must be met. `'fraction'`: partial credit, the
   * weighted share of criteria met must reach `threshold`, and only criteria marked required gate.
   */
  scoring?: 'all' | 'fraction' | undefined
  /** With `scoring: 'fraction'`: the share (0 to 1) to reach. Default `1`. */
  threshold?: number | undefined
  /** Cassette mode for this assertion only, e.g. `'off'` for an always-live smoke test. */
  cassettes?: CassetteMode | undefined
}

/** Options of `toPassScorer`. */
export interface ToPassScorerOptions {
  /** Minimum score to pass (maximum with `direction: 'max'`). Default `1`; a rubric scorer passes on its own `passed`. */
  threshold?: number | undefined
  /** `'max'`: lower is better (a hallucination rate); the score passes at or under `threshold`, which is then required. Default `'min'`. */
  direction?: 'min' | 'max' | undefined
  input?: unknown
  /** The reference answer; a rubric scorer shows it to the judge. */
  groundTruth?: unknown
  /** evalite's name for `groundTruth`. */
  expected?: unknown
  /** Given to the scorer as `additionalContext.context`; a rubric scorer shows it to the judge. */
  context?: unknown
  requestContext?: unknown
  /** With a list of scorers: `'all'` (default) each must pass; `'mean'` their mean score must reach `threshold`. */
  aggregate?: 'all' | 'mean' | undefined
  /** `'skip'`: a not-scorable result (a `null` score) skips the test with its reason. Default `'error'`. */
  notScorable?: 'error' | 'skip' | undefined
  /** Cassette mode for this assertion only. */
  cassettes?: CassetteMode | undefined
}

/**
 * Options of `toAgreeWithLabels`. Give at least one threshold; a rate is compared by its point
 * estimate, and a κ or rate that cannot be computed fails its threshold.
 */
export interface ToAgreeWithLabelsOptions {
  /** Fail when Cohen's κ over every labelled judgement is below this (from -1 to 1). */
  minKappa?: number | undefined
  /** Fail when the false-pass rate (judged met, labelled unmet) is above this. */
  maxFalsePass?: number | undefined
  /** Fail when the false-fail rate (judged unmet, labelled met) is above this. */
  maxFalseFail?: number | undefined
  /** Fail when the share of judgements that agree with their label is below this. */
  minAccuracy?: number | undefined
  /** Judge every example this many times and take the majority. Default `1`. */
  samples?: number | undefined
  /** One judge call per example (default), or one per criterion. */
  evaluation?: 'together' | 'separately' | undefined
  /** Cassette mode for this assertion only. */
  cassettes?: CassetteMode | undefined
}

/** A labelled set: a `.jsonl` or `.json` file (relative to the test file's folder, as `describeEval` data), or its examples. */
export type LabelsInput = string | readonly LabelledExample[]

/**
 * An expected tool call: a tool name (any arguments), or a name and the arguments it must have;
 * `agent` is the agent that must have made it and `handoffTo` the agent a handoff must have handed
 * to (OpenAI Agents SDK results).
 */
export type ExpectedToolCall =
  | string
  | {
      name: string
      args?: unknown
      agent?: string | undefined
      handoffTo?: string | undefined
    }

/** Options of `toHaveToolCalls`. */
export interface ToHaveToolCallsOptions {
  /** The calls must be made in the expected order. Default `true`. */
  ordered?: boolean | undefined
  /** `'subset'`: the actual arguments hold at least the expected keys; `'exact'`: they are equal. Default `'subset'`. */
  args?: 'exact' | 'subset' | undefined
}

/**
 * How a call's arguments are compared with its reference call's: `'exact'` (deep equality),
 * `'subset'` (every reference key, deeply, and any others), `'ignore'` (the tool's name alone), or
 * a function `(expected, actual, name) => boolean`.
 */
export type TrajectoryArgsMode =
  | 'exact'
  | 'subset'
  | 'ignore'
  | ((expected: unknown, actual: unknown, name: string) => boolean)

/** Options of `toMatchTrajectory`. */
export interface ToMatchTrajectoryOptions {
  /**
   * `'strict'`: the same calls in the same order; `'unordered'`: the same calls in any order;
   * `'subset'`: no call outside the reference; `'superset'`: every reference call, others
   * allowed. Default `'strict'`.
   */
  mode?: 'strict' | 'unordered' | 'subset' | 'superset' | undefined
  /** How arguments are compared. Default `'subset'`. */
  args?: TrajectoryArgsMode | undefined
  /** Per tool name, how its arguments are compared, overriding `args`: `{ search: 'ignore' }`. */
  argsByTool?: Readonly<Record<string, TrajectoryArgsMode>> | undefined
}

/** Anything with a `run()` that returns a score: a scorer built with `createScorer` or `createRubricScorer`. */
export interface ScorerLike {
  id?: string | undefined
  run(
    run: any,
  ): Promise<{ score?: number | undefined; reason?: string | undefined } & Record<string, any>>
}

/**
 * The `this` of rubricate's matchers: Vitest's matcher state. (Referencing a Vitest type here also
 * keeps `import 'vitest'` in the bundled `.d.ts`, without which the augmentation would not apply.)
 */
export type RubricateMatcherState = MatcherState

/** Options of `toBeSemanticallySimilarTo`. */
export interface ToBeSemanticallySimilarToOptions {
  /** The embedding model: `'openai/<model>'`, an endpoint `{ model, baseURL?, apiKey? }`, an AI SDK embedding model, or `{ id, embed(texts) }`. Required. */
  embedder: import('../src/judge/embed').EmbedderInput
  /** The cosine similarity (0 to 1) to reach. Default `0.8`. */
  threshold?: number | undefined
  /** Cassette mode for this assertion only. */
  cassettes?: CassetteMode | undefined
}

/** Options of `toBeSimilarByEditDistance`. */
export interface ToBeSimilarByEditDistanceOptions {
  /** The similarity (1 minus the normalised edit distance, 0 to 1) to reach. Default `0.8`. */
  threshold?: number | undefined
  /** Compare lower-cased texts. Default `false`. */
  ignoreCase?: boolean | undefined
}

/** Options of `toBeGroundedIn`. */
export interface ToBeGroundedInOptions {
  /** The question the output answers; shown to the judge. */
  input?: unknown
  /** The share of claims (0 to 1) the context must support. Default `1`: every claim. */
  threshold?: number | undefined
  /** The judge for this assertion; wins over every other setting. */
  judge?: JudgeInput | undefined
  /** Cassette mode for this assertion only. */
  cassettes?: CassetteMode | undefined
}

/** Options of `toBePreferredOver`. */
export interface ToBePreferredOverOptions {
  /** The task both outputs answer; shown to the judge. */
  input?: unknown
  /** The judge for this assertion; wins over every other setting. */
  judge?: JudgeInput | undefined
  /** `true`: a tie (the two orders disagree, or the judge says tie) passes too. Default `false`. */
  allowTie?: boolean | undefined
  /** Cassette mode for this assertion only. */
  cassettes?: CassetteMode | undefined
}
