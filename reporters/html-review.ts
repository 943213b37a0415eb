// Pure: human review on the report page (ARCHITECTURE.md §9.3). Each verdict gets a control to
// mark the judge right or wrong, or to set the right verdict; what a labelled example needs (the
// output and input judged, the criterion) is in one JSON data block, which the page's script
// reads when it exports the marks as a labelled set in the calibration format. The marks live
// in the page until then: no server, no storage.
import { redactedValue } from '../src/output-safety/redacted-value'
import type { RubricateRecord, Verdict } from '../src/records/records'

/**
 * One reviewable verdict, as the export needs it; texts are indexes into the page's text list.
 * @internal
 */
export interface ReviewItem {
  /** The output judged. */
  o: number
  /** The input, when one was given. */
  i?: number | undefined
  /** The criterion, as written. */
  c: number
  /** Required. */
  r: boolean
  /** The judge found it met. */
  s: boolean
  /** `file › test`, written into the label's note. */
  w: number
  /** Set when the output was cut for the report: the label's output is its start. */
  cut?: string | undefined
}

/** Collects the page's reviewable verdicts; each gets an id its control names. @internal */
export class ReviewCollector {
  private readonly items: ReviewItem[] = []
  private readonly texts: string[] = []
  private readonly textIndex = new Map<string, number>()

  /**
   * Keep one verdict of `record` for the export; its id goes on the verdict's element, where the
   * page's script puts the review list (a list that could do nothing without the script is not
   * drawn without it, and 1,000 of them would weigh on the page).
   */
  add(record: RubricateRecord, verdict: Verdict, where: string): number {
    const output = record.output ?? record.outputPreview
    const whole = record.outputLength ?? (record.output === undefined ? undefined : output.length)
    this.items.push({
      o: this.text(output),
      ...(record.input !== undefined ? { i: this.text(record.input) } : {}),
      c: this.text(verdict.criterion),
      r: verdict.required,
      s: verdict.satisfied,
      w: this.text(where),
      ...(whole !== undefined && whole > output.length
        ? { cut: `the output was cut to its first ${output.length} of ${whole} characters` }
        : {}),
    })
    return this.items.length - 1
  }

  // A text kept once, however many verdicts judged it: a row's output serves all its criteria.
  private text(value: string): number {
    let index = this.textIndex.get(value)
    if (index === undefined) {
      index = this.texts.push(value) - 1
      this.textIndex.set(value, index)
    }
    return index
  }

  /** How many verdicts can be reviewed. */
  get size(): number {
    return this.items.length
  }

  /**
   * The data block: JSON with every `<`, `>`, `&` and line separator escaped, so no text in it
   * can close the element or open another (untrusted text never makes structure); not run (its
   * type is not a script's), so the page's policy allows it.
   */
  dataElement(): string {
    const json = JSON.stringify(redactedValue({ texts: this.texts, items: this.items }))
      .replace(/</g, '\\u003c')
      .replace(/>/g, '\\u003e')
      .replace(/&/g, '\\u0026')
      .replace(/\u2028/g, '\\u2028')
      .replace(/\u2029/g, '\\u2029')
    return `<script type="application/json" id="review-data">${json}</script>`
  }
}

/** The review bar: who reviews, how many marks, and the export. @internal */
export function reviewSection(collector: ReviewCollector): string {
  if (collector.size === 0) return ''
  return `<section id="review"><h2>Review</h2><p class="dim">Mark a verdict right or wrong (or set the right one) with the list under it (the page's script draws it), then export the marks as a labelled set: <code>rubricate calibrate labels.jsonl</code> measures the judge against them, and <code>toAgreeWithLabels</code> gates on it. The marks stay in this page until exported; reloading it clears them.</p><form id="review-form"><label>Reviewer <input type="text" id="reviewer" placeholder="your name (optional)"></label> <span id="review-count">0 marked</span> <button type="button" id="export-labels" disabled>Export labels (.jsonl)</button></form></section>`
}
