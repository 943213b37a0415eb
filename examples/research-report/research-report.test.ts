import { createRubricScorer, runUntilComplete } from 'rubricate'
import { expect, test } from 'vitest'
import { createResearchSupervisor } from './supervisor'

const reportRubric = createRubricScorer({
  criteria: `
    - The report includes an analysis section
    - The report gives concrete recommendations
    - (optional) The report cites its sources
  `,
})

test('the research supervisor revises its report until the rubric passes', async () => {
  const question =
    'Should a 40-person software company move its CI from self-hosted runners to a managed CI service?'
  const result = await runUntilComplete(createResearchSupervisor(), {
    scorers: [reportRubric],
    input: question,
    maxSteps: 3,
  })
  // The first draft has no recommendations; the rubric's feedback names the gap, and the writer
  // fills it in the next draft. The reporter shows each iteration's check.
  expect(result.complete).toBe(true)
})
