/**
 * The text of a data file as its rows are read from: without the UTF-8 byte order mark that
 * Excel and Windows editors write, which is no part of the first field or key. Every data file
 * rubricate reads (a labelled set for `calibrateJudge`, the rows of `describeEval`) goes through
 * this, so a file one accepts the other does too.
 * @internal
 */
export function dataText(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
}
