// The reference model's rules for the dataset eval example: the FAQ agent's answer to each
// question of faq.jsonl, and how the judge decides the eval's two criteria.
import { agentRule, type Decision, type ExampleRules } from '../reference-model/rules'
import { FAQ_SYSTEM_PROMPT } from './faq-agent'

const ANSWERS: Record<string, string> = {
  'How much storage does the free plan include?': 'The free plan includes 15 GB of storage.',
  'How much does Lumen Plus cost?': 'Lumen Plus costs $4.99 a month and gives you 2 TB.',
  'Can I cancel Lumen Plus whenever I want?':
    'Yes: you can cancel at any time from Settings > Plan.',
  'How long do you keep photos after I delete them?':
    'Deleted photos stay in the bin for 30 days, so you can still restore them.',
  'Can I upload RAW files from my camera?':
    'Yes, Lumen accepts RAW files, as well as JPEG, PNG, HEIC and MP4.',
  'Can I share an album with someone who has no account?':
    'Yes: send them a share link; they can view the album without an account.',
  'How do I turn on two-factor authentication?':
    'Go to Settings > Security and switch on two-factor authentication.',
  'Do you offer a student discount?': 'Yes, students get 50% off Lumen Plus.',
  'How long does a photo book take to arrive?': 'A photo book arrives within 5 to 7 business days.',
  'Can I download all my photos at once?':
    'Yes: Export downloads every photo in your library as one ZIP file.',
  'Where is my data stored? I live in Germany.':
    'Photos of customers in the EU, Germany included, are stored in Frankfurt.',
  // The fact sheet has no phone number: the agent says so, which fails the row.
  'What number can I call for phone support?':
    "I'm not sure we offer phone support; a human agent answers by chat on weekdays.",
}

const rules: ExampleRules = {
  rules: [
    agentRule({
      name: 'FAQ agent',
      system: FAQ_SYSTEM_PROMPT,
      reply: (request) =>
        ANSWERS[request.user] ?? `No answer for "${request.user}" in dataset-eval.rules.ts.`,
    }),
  ],
  criteria: [
    {
      criterion: 'Answers the question that was asked',
      decide: (output): Decision =>
        /not sure/i.test(output)
          ? { satisfied: false, reasoning: 'The reply says it is not sure instead of answering.' }
          : { satisfied: true, reasoning: `The reply answers: "${output}"` },
    },
    {
      criterion: 'Never blames the customer',
      decide: (output): Decision =>
        /your fault|you should have/i.test(output)
          ? { satisfied: false, reasoning: 'The reply blames the customer.' }
          : { satisfied: true, reasoning: 'Nothing in the reply blames the customer.' },
    },
  ],
}

export default rules
