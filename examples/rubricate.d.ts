// Types for rubricate's matchers (`toSatisfyRubric`, `toPassScorer`) on Vitest's `expect`. In
// your project, `/// <reference types="rubricate/matchers" />` does it; here, inside rubricate's
// own repository, the package is found by its own name, which only an import resolves.
import type {} from 'rubricate/matchers'
