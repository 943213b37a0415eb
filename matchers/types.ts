import type { MatcherState } from 'vitest'
import type { LabelledExample } from '../src/calibrate/label-set'
import type { CassetteMode } from '../src/config'
import type { JudgeInput } from '../src/records'

/** Criteria of a rubric: one per line of a string, or a list. */
export type RubricCriteriaInput =
  | string
  | (string | { description: string; required?: boolean | undefined; id?: string | undefined })[]

/** Options of `toSatisfyRubric`. */
export interface ToSatisfyRubricOptions {
  /** The task the output answers (a string or a message list); shown to the judge. */
  input?: unknown
  /** The judge for this assertion; wins over every other setting. */
  judge?: JudgeInput | undefined
  /** Judge the rubric this many times and take a per-criterion majority. Default `1`. */
  samples?: number | undefined
  /** One judge call for the whole rubric (default), or one per criterion. */
  evaluation?: 'together' | 'separately' | undefined
  /** Cassette mode for this assertion only, e.g. `'off'` for an always-live smoke test. */
  cassettes?: CassetteMode | undefined
}

/** Options of `toPassScorer`. */
export interface ToPassScorerOptions {
  /** Minimum score to pass. Default `1`; a rubric scorer passes on its own `passed`. */
  threshold?: number | undefined
  input?: unknown
  groundTruth?: unknown
  requestContext?: unknown
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

/** A labelled set: a `.jsonl` or `.json` file (relative to the project root), or its examples. */
export type LabelsInput = string | readonly LabelledExample[]

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
