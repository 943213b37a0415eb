// The reference model's rules for the research-report example: the researcher's notes, the
// writer's first draft (no recommendations) and its revision once the rubric's feedback asks for
// them, and how the judge decides the report's criteria.
import { agentRule, type CriterionRule, type ExampleRules } from '../reference-model/rules'
import { RESEARCHER_SYSTEM_PROMPT, WRITER_SYSTEM_PROMPT } from './supervisor'

const NOTES = `- Self-hosted runners: 3 build machines, about 14 hours a month of upkeep by the platform team. (source: internal ops log, Q2)
- Queue time at peak: median 9 minutes, p95 31 minutes. (source: CI dashboard, last 90 days)
- Managed CI pricing: roughly $0.008 per Linux build minute; 41,000 build minutes last month. (source: vendor pricing page)
- Two builds need a GPU and one needs access to the on-premises license server. (source: pipeline inventory)`

const ANALYSIS = `# Moving CI to a managed service

## Summary
Our self-hosted runners cost little in cash but a lot in time: upkeep and queueing slow every team.

## Analysis
At 41,000 build minutes a month, a managed service would cost about $330 a month, less than the
14 hours of upkeep the platform team spends on the runners today. Peak queue times (p95 31 minutes)
would mostly disappear, since managed runners scale with demand. The risks are the two GPU builds
and the build that needs the on-premises license server: neither runs on standard managed runners.`

const FIRST_DRAFT = `${ANALYSIS}

## Conclusion
A managed service looks like a good fit for most of our builds.`

const REVISED_DRAFT = `${ANALYSIS} [1][2][3][4]

## Recommendations
1. Move the standard Linux builds to the managed service this quarter, starting with the three busiest repositories.
2. Keep one self-hosted runner for the two GPU builds and the license-server build, registered with the managed service.
3. Set a monthly budget alert at $450 and review queue times and cost after 60 days.

## Sources
[1] Internal ops log, Q2. [2] CI dashboard, last 90 days. [3] Vendor pricing page. [4] Pipeline inventory.`

const rules: ExampleRules = {
  rules: [
    agentRule({
      name: 'researcher: CI notes',
      system: RESEARCHER_SYSTEM_PROMPT,
      user: /managed CI service/,
      reply: NOTES,
    }),
    agentRule({
      name: 'writer: revision after feedback',
      system: WRITER_SYSTEM_PROMPT,
      user: /Reviewer feedback to address:[\s\S]*recommendations/,
      reply: REVISED_DRAFT,
    }),
    agentRule({
      name: 'writer: first draft',
      system: WRITER_SYSTEM_PROMPT,
      user: /managed CI service/,
      reply: FIRST_DRAFT,
    }),
  ],
  criteria: [
    {
      criterion: 'The report includes an analysis section',
      decide: (output) =>
        /^## Analysis$/m.test(output)
          ? {
              satisfied: true,
              reasoning: 'An "Analysis" section weighs cost, upkeep, queue times and risks.',
            }
          : { satisfied: false, reasoning: 'There is no analysis section.' },
    },
    {
      criterion: 'The report gives concrete recommendations',
      decide: (output) => {
        const section = /^## Recommendations\n([\s\S]*?)(?=\n## |$)/m.exec(output)?.[1] ?? ''
        const steps = section.match(/^\d+\. /gm)?.length ?? 0
        return steps > 0
          ? {
              satisfied: true,
              reasoning: `A "Recommendations" section lists ${steps} concrete steps, each with its scope and timing.`,
            }
          : {
              satisfied: false,
              reasoning:
                'The report ends with a general conclusion ("looks like a good fit") but recommends no concrete action.',
            }
      },
    },
    {
      criterion: 'The report cites its sources',
      decide: (output) =>
        /^## Sources$/m.test(output) && /\[\d+\]/.test(output)
          ? { satisfied: true, reasoning: 'Claims carry numbered references to a "Sources" list.' }
          : {
              satisfied: false,
              reasoning: 'The figures (pricing, queue times) are given without sources.',
            },
    },
  ] satisfies CriterionRule[],
}

export default rules
