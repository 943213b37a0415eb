// The reference model's rules for the custom scorer example: the support agent's reply to an
// upset customer, and the judge's answer to the scorer's tone step.
import { agentRule, type ExampleRules } from '../reference-model/rules'
import { SUPPORT_SYSTEM_PROMPT } from '../support-agent/support-agent'
import { TONE_INSTRUCTIONS } from './plain-language-scorer'

const rules: ExampleRules = {
  rules: [
    agentRule({
      name: 'support agent: failed uploads',
      system: SUPPORT_SYSTEM_PROMPT,
      user: /upload failed/,
      reply:
        "I'm really sorry, losing holiday photos three times is awful. Your photos from the failed uploads are still in the upload queue on your phone, so nothing is lost. Open the app, tap Uploads, then Retry all. If it fails again, reply here and I'll look at it with you right away.",
    }),
    {
      name: 'judge: tone of a support reply',
      match: (request) =>
        request.system === TONE_INSTRUCTIONS && request.schemaName === 'analyze_result',
      reply: (request) => {
        const reply = /^Reply: ([\s\S]*)$/m.exec(request.user)?.[1] ?? ''
        const warm = /sorry|apologi[sz]e|thank/i.test(reply)
        const defensive = /you should have|as (we|I) said|not our fault/i.test(reply)
        return {
          tone: defensive ? 'defensive' : warm ? 'warm' : 'neutral',
          blamesCustomer: /your fault|you should have/i.test(reply),
        }
      },
    },
  ],
}

export default rules
