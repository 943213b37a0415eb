import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { dirname, extname, isAbsolute, relative, resolve } from 'node:path'
import { isRubricateError, UsageError, withoutErrorPage } from '../errors'
import { messages, show } from '../messages'
import { OPTIONAL_MARKER, parseCriteria, withoutMarker } from '../rubric/criteria'
import { runtimeState } from '../runtime/state'
import { dataText } from './data-text'

/** One labelled criterion of a {@link LabelledExample} with several criteria. */
export interface LabelledCriterion {
  /** The criterion as written in a rubric; `(optional)` at the start or end marks an optional one. */
  criterion: string
  /** The human verdict: `true` when the output meets the criterion. */
  label: boolean
  /** Default `true` (or `false` when the text says `(optional)`). */
  required?: boolean | undefined
  note?: string | undefined
}

/**
 * One row of a labelled set: an output, and either one `criterion` with its human `label` or a
 * list of `criteria` with theirs.
 */
export interface LabelledExample {
  /** The output that was judged: a string, or anything `toSatisfyRubric` accepts. */
  output: unknown
  /** The task the output answers; shown to the judge, as `toSatisfyRubric`'s `input`. */
  input?: unknown
  /** A reference answer, kept with the row and shown in disagreements; the rubric judge does not see it. */
  reference?: unknown
  criterion?: string | undefined
  label?: boolean | undefined
  required?: boolean | undefined
  criteria?: LabelledCriterion[] | undefined
  note?: string | undefined
  labeler?: string | undefined
}

/** A labelled example after parsing: where it came from, and its criteria as a rubric. @internal */
export interface ParsedExample {
  /** `labels.jsonl line 7`, `labels.json item 3`, `labels item 1`. */
  where: string
  output: unknown
  input?: unknown
  reference?: unknown
  criteria: { description: string; required: boolean; label: boolean; note?: string | undefined }[]
  note?: string | undefined
  labeler?: string | undefined
}

/** A parsed labelled set. @internal */
export interface LabelSet {
  /** The file as given (relative to the root), or `labels` for an array. */
  source: string
  examples: ParsedExample[]
}

const ROW_KEYS = [
  'output',
  'input',
  'reference',
  'criterion',
  'label',
  'required',
  'criteria',
  'note',
  'labeler',
]
const CRITERION_KEYS = ['criterion', 'label', 'required', 'note']

/**
 * Read a labelled set: a path (`.jsonl`: one example a line, blank lines skipped; `.json`: an
 * array), or an array of examples. A relative path is resolved as `describeEval` resolves its data:
 * against the folder of the test file that asks (`testFile`), or against the project root outside
 * a test (the CLI). A malformed row is a usage error naming its line.
 * @internal
 */
export async function loadLabelSet(
  labels: unknown,
  testFile?: string | undefined,
): Promise<LabelSet> {
  if (Array.isArray(labels)) {
    return { source: 'labels', examples: parseRows(labels, (index) => `labels item ${index + 1}`) }
  }
  if (typeof labels !== 'string' || labels.trim() === '') {
    throw new UsageError(messages.calibrateBadLabels(labels))
  }
  const root = runtimeState().run.root ?? process.cwd()
  const base = testFile === undefined ? root : dirname(testFile)
  const file = isAbsolute(labels) ? labels : resolve(base, labels)
  // As given; an absolute path inside the root is shown relative to it, one outside as it is.
  const inside = relative(root, file)
  const shown = !isAbsolute(labels) ? labels : inside.startsWith('..') ? file : inside
  const source = shown.split('\\').join('/')
  const extension = extname(file).toLowerCase()
  if (extension !== '.jsonl' && extension !== '.json') {
    throw new UsageError(messages.labelsBadExtension(source))
  }
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    const code = (error as { code?: string }).code
    const reason = code === 'ENOENT' ? 'no such file' : (error as Error).message
    // Paths in a test used to be read from the project root: say where the file is expected now,
    // rather than silently reading it from a second place that the rule does not name.
    if (code === 'ENOENT' && testFile !== undefined && !isAbsolute(labels)) {
      const fromRoot = resolve(root, labels)
      const moved = existsSync(fromRoot) ? relativePath(dirname(testFile), fromRoot) : undefined
      throw new UsageError(
        messages.labelsNotBesideTest(source, relative(root, testFile).split('\\').join('/'), moved),
        { cause: error },
      )
    }
    throw new UsageError(messages.labelsUnreadable(source, reason), { cause: error })
  }
  return { source, examples: parseLabelText(text, source, extension === '.jsonl') }
}

/** Parse the text of a labelled set (JSONL, or a JSON array). @internal */
export function parseLabelText(given: string, source: string, jsonl: boolean): ParsedExample[] {
  // Without a byte order mark, as describeEval reads its data: a file one accepts, both do.
  const text = dataText(given)
  let examples: ParsedExample[]
  if (jsonl) {
    const rows: { row: unknown; where: string }[] = []
    text.split(/\r?\n/).forEach((line, index) => {
      if (line.trim() === '') return
      const where = `${source} line ${index + 1}`
      rows.push({ row: parseJson(line, where), where })
    })
    examples = rows.map(({ row, where }) => parseRow(row, where))
  } else {
    const value = parseJson(text, source)
    if (!Array.isArray(value)) throw new UsageError(messages.labelsNotArray(source, value))
    examples = parseRows(value, (index) => `${source} item ${index + 1}`)
  }
  if (examples.length === 0) throw new UsageError(messages.labelsEmpty(`"${source}"`))
  return examples
}

function parseRows(rows: readonly unknown[], where: (index: number) => string): ParsedExample[] {
  const examples = rows.map((row, index) => parseRow(row, where(index)))
  if (examples.length === 0) throw new UsageError(messages.labelsEmpty('given as an array'))
  return examples
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new UsageError(messages.labelsBadJson(where, (error as Error).message))
  }
}

function parseRow(row: unknown, where: string): ParsedExample {
  const bad = (problem: string) => new UsageError(messages.labelsBadRow(where, problem))
  if (typeof row !== 'object' || row === null || Array.isArray(row)) {
    throw bad(`${show(row)} is not an object`)
  }
  const fields = row as Record<string, unknown>
  for (const key of Object.keys(fields)) {
    if (!ROW_KEYS.includes(key)) throw bad(`unknown field "${key}" (known: ${ROW_KEYS.join(', ')})`)
  }
  if (fields.output === undefined || fields.output === null) throw bad('"output" is missing')
  const single = fields.criterion !== undefined || fields.label !== undefined
  if (single && fields.criteria !== undefined) {
    throw bad('it has both "criterion" and "criteria"; use one')
  }
  let items: Record<string, unknown>[]
  if (fields.criteria !== undefined) {
    if (!Array.isArray(fields.criteria) || fields.criteria.length === 0) {
      throw bad('"criteria" must be a non-empty list of {"criterion", "label"}')
    }
    if (fields.required !== undefined) throw bad('"required" goes on each item of "criteria"')
    items = fields.criteria.map((item: unknown, index) => {
      const at = `"criteria" item ${index + 1}`
      if (typeof item !== 'object' || item === null || Array.isArray(item)) {
        throw bad(`${at} is ${show(item)}, not {"criterion", "label"}`)
      }
      for (const key of Object.keys(item)) {
        if (!CRITERION_KEYS.includes(key)) {
          throw bad(`${at} has an unknown field "${key}" (known: ${CRITERION_KEYS.join(', ')})`)
        }
      }
      return { ...(item as Record<string, unknown>), at }
    })
  } else {
    if (fields.criterion === undefined) {
      throw bad(
        fields.label === undefined
          ? 'it needs "criterion" and "label", or "criteria"'
          : '"criterion" is missing',
      )
    }
    items = [
      { criterion: fields.criterion, label: fields.label, required: fields.required, at: '' },
    ]
  }
  const criteria = items.map((item) => {
    const at = item.at ? `${item.at}: ` : ''
    if (typeof item.criterion !== 'string' || item.criterion.trim() === '') {
      throw bad(`${at}"criterion" must be a non-empty string, but is ${show(item.criterion)}`)
    }
    if (typeof item.label !== 'boolean') {
      throw bad(`${at}"label" must be true (met) or false (unmet), but is ${show(item.label)}`)
    }
    if (item.required !== undefined && typeof item.required !== 'boolean') {
      throw bad(`${at}"required" must be true or false, but is ${show(item.required)}`)
    }
    if (item.note !== undefined && typeof item.note !== 'string') {
      throw bad(`${at}"note" must be a string, but is ${show(item.note)}`)
    }
    return item as { criterion: string; label: boolean; required?: boolean; note?: string }
  })
  for (const key of ['note', 'labeler'] as const) {
    if (fields[key] !== undefined && typeof fields[key] !== 'string') {
      throw bad(`"${key}" must be a string, but is ${show(fields[key])}`)
    }
  }
  let parsed: ReturnType<typeof parseCriteria>
  try {
    // The criteria read as a rubric does: "(optional)" marks, list markers, duplicates refused.
    parsed = parseCriteria(
      criteria.map((item) =>
        item.required === undefined
          ? item.criterion
          : { description: stripOptional(item), required: item.required },
      ),
      where,
    )
  } catch (error) {
    if (isRubricateError(error))
      throw bad(
        withoutErrorPage(error.message)
          .replace(/^\[rubricate\] /, '')
          .replace(/\.$/, ''),
      )
    throw error
  }
  return {
    where,
    output: fields.output,
    ...(fields.input !== undefined && { input: fields.input }),
    ...(fields.reference !== undefined && { reference: fields.reference }),
    criteria: parsed.map((criterion, index) => {
      const item = criteria[index] as { label: boolean; note?: string }
      return {
        description: criterion.description,
        required: criterion.required,
        label: item.label,
        ...(item.note !== undefined && { note: item.note }),
      }
    }),
    ...(typeof fields.note === 'string' && { note: fields.note }),
    ...(typeof fields.labeler === 'string' && { labeler: fields.labeler }),
  }
}

function stripOptional(item: { criterion: string }): string {
  // Linear: `/\s*\(optional\)$/` is quadratic on a long run of spaces.
  const text = item.criterion.trim()
  return withoutMarker(text, OPTIONAL_MARKER) ?? text
}

// A relative path with forward slashes that starts with `./` or `../`, as a user would write it.
function relativePath(from: string, to: string): string {
  const path = relative(from, to).split('\\').join('/')
  return path.startsWith('.') ? path : `./${path}`
}
