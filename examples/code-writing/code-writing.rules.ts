// The reference model's rules for the code-writing example: the code the agent writes, and how
// the judge decides the two criteria.
import { agentRule, type ExampleRules, whenOutputMatches } from '../reference-model/rules'
import { CODING_SYSTEM_PROMPT } from './coding-agent'

const FIND_DUPLICATES = `Here is the function:

\`\`\`javascript
function find_duplicates(list) {
  const counts = new Map()
  for (const item of list) counts.set(item, (counts.get(item) ?? 0) + 1)
  return [...counts].filter(([, count]) => count > 1).map(([item]) => item)
}
\`\`\`

A \`Map\` keeps its keys in insertion order, so the duplicates come out in the order they first appear, each once.`

const rules: ExampleRules = {
  rules: [
    agentRule({
      name: 'coding agent: find_duplicates',
      system: CODING_SYSTEM_PROMPT,
      user: /find_duplicates/,
      reply: FIND_DUPLICATES,
    }),
  ],
  criteria: [
    whenOutputMatches(
      'All tests pass in the test suite',
      /^Test suite: [1-9]\d* passed, 0 failed$/m,
      'The test report shows failing tests.',
    ),
    whenOutputMatches(
      'The function is named find_duplicates and accepts a single list argument',
      /function find_duplicates\s*\(\s*[A-Za-z_$][\w$]*\s*\)/,
      'No function find_duplicates with exactly one parameter is defined.',
    ),
  ],
}

export default rules
