import vm from 'node:vm'

/** One case of the suite the generated function must pass. */
interface Case {
  args: unknown[]
  expected: unknown
}

const CASES: Case[] = [
  { args: [[1, 2, 3, 2, 1]], expected: [1, 2] },
  { args: [[]], expected: [] },
  { args: [['a', 'b', 'a', 'c']], expected: ['a'] },
  { args: [[1, '1', 1]], expected: [1] },
  { args: [[5, 5, 5]], expected: [5] },
]

/** The outcome of running the suite: counts, and one line per case. */
export interface SuiteReport {
  passed: number
  failed: number
  lines: string[]
}

/**
 * Run `find_duplicates` from `code` against the suite, in a fresh V8 context with a time limit
 * (generated code is untrusted). A function that is missing or throws fails its cases.
 */
export function runFindDuplicatesSuite(code: string): SuiteReport {
  const lines: string[] = []
  let fn: unknown
  try {
    fn = vm.runInNewContext(
      `${code}\n;typeof find_duplicates === 'function' ? find_duplicates : undefined`,
      {},
      {
        timeout: 1000,
      },
    )
  } catch (error) {
    lines.push(`✗ the code does not run: ${(error as Error).message}`)
  }
  let passed = 0
  for (const { args, expected } of CASES) {
    const call = `find_duplicates(${args.map((arg) => JSON.stringify(arg)).join(', ')})`
    let actual: string
    try {
      actual =
        typeof fn === 'function' ? JSON.stringify(fn(...args)) : 'no find_duplicates function'
    } catch (error) {
      actual = `threw ${(error as Error).message}`
    }
    const ok = actual === JSON.stringify(expected)
    if (ok) passed++
    lines.push(
      `${ok ? '✓' : '✗'} ${call} returns ${JSON.stringify(expected)}${ok ? '' : ` (got ${actual})`}`,
    )
  }
  return { passed, failed: CASES.length - passed, lines }
}
