import { createScorer } from 'rubricate'
import { z } from 'zod'

/** The judge's instructions for the tone step. Its rule in the reference model recognises them. */
export const TONE_INSTRUCTIONS =
  'You review customer support replies. You classify their tone, strictly and briefly.'

const JARGON = ['escalate', 'ticket', 'sla', 'workflow', 'as per', 'synergy', 'leverage']

/**
 * A support reply in plain language: short sentences and no jargon (measured in code), a warm or
 * neutral tone and no blame on the customer (judged by the model). Score 1 is a perfect reply;
 * each problem takes some off.
 */
export const plainLanguageScorer = createScorer<string, string>({
  id: 'plain-language',
  description: 'The reply is short, jargon-free, warm, and never blames the customer.',
  judge: { instructions: TONE_INSTRUCTIONS },
})
  // preprocess: a function step, no model call. What code can measure, code measures.
  .preprocess(({ run }) => {
    const sentences = run.output.split(/(?<=[.!?])\s+/).filter((s) => s.trim() !== '')
    const words = run.output.split(/\s+/).filter((w) => w !== '').length
    const lower = run.output.toLowerCase()
    return {
      wordsPerSentence: Math.round(words / Math.max(1, sentences.length)),
      jargon: JARGON.filter((term) => new RegExp(`\\b${term}\\b`).test(lower)),
    }
  })
  // analyze: a prompt step. The judge answers in the shape of `outputSchema` (validated, repaired once).
  .analyze({
    description: 'Classify the tone of the reply',
    outputSchema: z.object({
      tone: z.enum(['warm', 'neutral', 'curt', 'defensive']),
      blamesCustomer: z.boolean(),
    }),
    createPrompt: ({ run }) =>
      [
        'Classify the tone of this support reply as warm, neutral, curt or defensive, and say whether it blames the customer.',
        '',
        `Customer message: ${run.input ?? '(none)'}`,
        `Reply: ${run.output}`,
      ].join('\n'),
  })
  .generateScore(({ results }) => {
    const { wordsPerSentence, jargon } = results.preprocessStepResult
    const { tone, blamesCustomer } = results.analyzeStepResult
    if (blamesCustomer) return 0
    let score = 1
    if (wordsPerSentence > 25) score -= 0.25
    score -= Math.min(0.5, 0.25 * jargon.length)
    if (tone === 'curt' || tone === 'defensive') score -= 0.5
    return Math.max(0, score)
  })
  .generateReason(({ results, score }) => {
    const { wordsPerSentence, jargon } = results.preprocessStepResult
    const { tone, blamesCustomer } = results.analyzeStepResult
    const findings = [
      `${tone} tone`,
      blamesCustomer ? 'blames the customer' : 'no blame',
      `${wordsPerSentence} words a sentence`,
      jargon.length > 0 ? `jargon: ${jargon.join(', ')}` : 'no jargon',
    ]
    const reason = `${findings.join(', ')}.`
    return score === 1 ? `Plain and kind: ${reason}` : `Could be plainer or kinder: ${reason}`
  })
