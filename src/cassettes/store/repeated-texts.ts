/**
 * Work on long texts that come back in every request (a judge's instructions), done once per
 * text: each new text is remembered, and a full table starts again, so that only the repeated
 * ones stay. The canonical JSON of a key and redaction share this rule.
 */

/** Texts shorter than this are cheap to work on again, and are not remembered. @internal */
export const REPEATED_TEXT_MIN_LENGTH = 256

const TABLE_SIZE = 64

/** `make(text)`, remembered in `table` for `text`. @internal */
export function onceForText(
  table: Map<string, string>,
  text: string,
  make: (text: string) => string,
): string {
  let out = table.get(text)
  if (out === undefined) {
    out = make(text)
    if (table.size >= TABLE_SIZE) table.clear()
    table.set(text, out)
  }
  return out
}
