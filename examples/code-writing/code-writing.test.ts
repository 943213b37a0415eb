import { expect, test } from 'vitest'
import { codingAgent } from './coding-agent'
import { runFindDuplicatesSuite } from './test-suite'

const TASK =
  'Write a JavaScript function find_duplicates that takes a list and returns the values that appear more than once, each value once, in the order they first appear. Use strict equality.'

test('writes find_duplicates and passes its test suite', async () => {
  const code = await codingAgent(TASK)
  const suite = runFindDuplicatesSuite(code)
  // The judge sees what a reviewer would: the code, and the test run's report.
  const submission = [
    'Code:',
    '```javascript',
    code,
    '```',
    '',
    `Test suite: ${suite.passed} passed, ${suite.failed} failed`,
    ...suite.lines,
  ].join('\n')
  await expect(submission).toSatisfyRubric(
    `
      - All tests pass in the test suite
      - The function is named find_duplicates and accepts a single list argument
    `,
    { input: TASK },
  )
})
