import { UsageError } from '../errors'
import { messages } from '../messages'
import { oneLine } from '../records/one-line'

/** One rubric criterion. `required` defaults to `true`. */
export interface RubricCriterion {
  description: string
  /** Default `true`. An unmet optional criterion shows in the reason but does not fail the rubric. */
  required?: boolean | undefined
  /**
   * Its share of the score with `scoring: 'fraction'`: a positive number. Default `1`. Not sent to
   * the judge, so it never changes a cassette key.
   */
  weight?: number | undefined
  /** Accepted for compatibility with Mastra; verdicts are identified as `c1`, `c2`, ... */
  id?: string | undefined
}

/** A rubric: one criterion per line of a string, or a list of criteria (strings or objects). */
export type RubricInput = string | readonly (string | RubricCriterion)[]

/** A criterion after parsing, with its position id. @internal */
export interface ParsedCriterion {
  /** `c1`, `c2`, ... in rubric order. */
  id: string
  description: string
  required: boolean
  /** Default `1`. */
  weight: number
  /** Marked `required: true` or `(required)`: a gate under `scoring: 'fraction'` too. */
  markedRequired: boolean
}

const LIST_MARKER = /^(?:[-*+•]|\d{1,3}[.)])(?=\s|$)\s*/
const CHECKBOX = /^\[[ xX]\](?=\s|$)\s*/
// The markers, matched on a slice of their own length: `/\s*\(optional\)$/` would try every start
// in a long run of spaces and scan it to its end, quadratic in the line's length.
const OPTIONAL = /^\(optional\)$/i
const REQUIRED = /^\(required\)$/i
const MARKER_LENGTH = '(optional)'.length

/**
 * Parse a rubric. A string gives one criterion per non-empty line (`\n`, `\r\n` or `\r`), with a leading list marker
 * (`-`, `*`, `+`, `•`, `1.`, `1)`) and a markdown checkbox (`[ ]`, `[x]`) stripped; a line that
 * starts or ends with `(optional)` is optional, one with `(required)` explicitly required. Array
 * items are strings (parsed the same way) or `{ description, required?, weight? }`. An empty criterion or a duplicate is a usage error; an empty
 * rubric gives an empty list (the caller decides what that means).
 * @internal
 */
export function parseCriteria(input: unknown, where: string): ParsedCriterion[] {
  let items: CriterionItem[]
  if (typeof input === 'string') {
    items = input
      // Any line break: \n, \r\n, and a lone \r (old Mac files, some text areas and terminals).
      .split(/\r\n|\r|\n/)
      .map((line, index) => ({ line, position: `line ${index + 1}` }))
      .filter(({ line }) => line.trim() !== '')
      .map(({ line, position }) => ({ ...parseLine(line), weight: 1, position }))
  } else if (Array.isArray(input)) {
    items = input.map((item: unknown, index) => arrayItem(item, index, where))
  } else {
    throw new UsageError(messages.rubricNotCriteria(where, input))
  }
  const seen = new Map<string, string>()
  return items.map((item, index) => {
    if (item.description === '')
      throw new UsageError(messages.rubricEmptyCriterion(where, item.position))
    const key = oneLine(item.description).toLowerCase()
    const first = seen.get(key)
    if (first) {
      throw new UsageError(
        messages.rubricDuplicateCriterion(where, item.description, first, item.position),
      )
    }
    seen.set(key, item.position)
    return {
      id: `c${index + 1}`,
      description: item.description,
      required: item.required,
      weight: item.weight,
      markedRequired: item.markedRequired,
    }
  })
}

interface CriterionItem {
  description: string
  required: boolean
  markedRequired: boolean
  weight: number
  /** `line 2`, `item 3`: where the rubric has it, for a message. */
  position: string
}

function arrayItem(item: unknown, index: number, where: string): CriterionItem {
  const position = `item ${index + 1}`
  if (typeof item === 'string') return { ...parseLine(item), weight: 1, position }
  const criterion = item as RubricCriterion | null
  if (
    typeof criterion !== 'object' ||
    criterion === null ||
    typeof criterion.description !== 'string'
  ) {
    throw new UsageError(messages.rubricBadItem(where, index, item))
  }
  const weight = criterion.weight ?? 1
  if (typeof weight !== 'number' || !Number.isFinite(weight) || weight <= 0) {
    throw new UsageError(messages.rubricBadWeight(where, position, weight))
  }
  return {
    description: criterion.description.trim(),
    required: criterion.required !== false,
    markedRequired: criterion.required === true,
    weight,
    position,
  }
}

function parseLine(line: string): {
  description: string
  required: boolean
  markedRequired: boolean
} {
  let text = line.trim().replace(LIST_MARKER, '').replace(CHECKBOX, '').trim()
  let required = true
  let markedRequired = false
  const optional = withoutMarker(text, OPTIONAL)
  if (optional !== undefined) {
    required = false
    text = optional.trim()
  } else {
    const marked = withoutMarker(text, REQUIRED)
    if (marked !== undefined) {
      markedRequired = true
      text = marked.trim()
    }
  }
  return { description: text, required, markedRequired }
}

/**
 * `text` without the marker (`(optional)`, `(required)`, any case) it starts or ends with, and
 * the whitespace beside it; undefined when it holds neither. The same as removing a leading
 * marker with the spaces after it, then a trailing one with the spaces before it, in linear time.
 * @internal
 */
export function withoutMarker(text: string, marker: RegExp): string | undefined {
  const starts = marker.test(text.slice(0, MARKER_LENGTH))
  const rest = starts ? text.slice(MARKER_LENGTH).trimStart() : text
  const ends = rest.length >= MARKER_LENGTH && marker.test(rest.slice(-MARKER_LENGTH))
  if (!starts && !ends) return undefined
  return ends ? rest.slice(0, -MARKER_LENGTH).trimEnd() : rest
}

/** The `(optional)` marker, for {@link withoutMarker}. @internal */
export const OPTIONAL_MARKER: RegExp = OPTIONAL
