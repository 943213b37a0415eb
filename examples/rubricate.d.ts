// Types for rubricate's matchers (`toSatisfyRubric`, `toPassScorer`) on Vitest's `expect`.
/// <reference types="rubricate/matchers" />
