import type { ScorerRun } from '../scorer/types'

/** Where a rubric given at run time was found. @internal */
export interface FoundRubric {
  value: unknown
  where: string
}

/**
 * Find the rubric of a run when the scorer has none of its own, first found wins:
 * `requestContext.rubric` (a plain object, or anything with `get('rubric')`, such as a `Map` or
 * Mastra's `RequestContext`), then `additionalContext.rubric`, then `input.rubric`.
 * @internal
 */
export function findRubric(run: ScorerRun): FoundRubric | undefined {
  const sources: [string, unknown][] = [
    ['requestContext', run.requestContext],
    ['additionalContext', run.additionalContext],
    ['input', run.input],
  ]
  for (const [name, source] of sources) {
    const value = pick(source)
    if (value !== undefined && value !== null) return { value, where: `The rubric in ${name}` }
  }
  return undefined
}

function pick(source: unknown): unknown {
  if (typeof source !== 'object' || source === null) return undefined
  const getter = (source as { get?: unknown }).get
  if (typeof getter === 'function') return getter.call(source, 'rubric')
  return (source as { rubric?: unknown }).rubric
}
