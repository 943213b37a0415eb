/**
 * The last line of every rubricate error's message: the link to its code's page on the docs site,
 * written out here in full (not built with the library's `errorPage`), so a test that expects it
 * holds the address a user clicks.
 */
export function errorPageLine(page: string): string {
  return `\nSee https://rubricate.github.io/rubricate/errors/${page}`
}

/** A message as a rubricate error of the code whose page is `page` carries it: with its link. */
export function linked(message: string, page: string): string {
  return `${message}${errorPageLine(page)}`
}

/** A pattern of a whole message (ending in `$`), extended to end with the link line of `page`. */
export function linkedPattern(pattern: RegExp, page: string): RegExp {
  if (!pattern.source.endsWith('$')) throw new Error(`${pattern} does not end with "$"`)
  const line = errorPageLine(page).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
  return new RegExp(`${pattern.source.slice(0, -1)}${line}$`, pattern.flags)
}
