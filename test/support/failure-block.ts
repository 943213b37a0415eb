// Reads Vitest's "Failed Tests" section (stderr of the default reporter) by test.

/**
 * The error text that Vitest printed for a failed test: the lines after its ` FAIL  file > name`
 * header (and after the headers of other tests that failed with the same error), up to the code
 * frame or the next separator.
 */
export function failureBlock(stderr: string, test: string): string {
  const lines = stderr.split('\n')
  let index = lines.indexOf(` FAIL  ${test}`)
  if (index < 0) throw new Error(`No failure printed for "${test}" in:\n${stderr}`)
  while (lines[index]?.startsWith(' FAIL  ')) index++
  const out: string[] = []
  for (; index < lines.length; index++) {
    const line = lines[index] ?? ''
    if (line.startsWith(' ❯ ') || line.startsWith('⎯')) break
    out.push(line)
  }
  return out.join('\n').trimEnd()
}
