import type { JsonSchema } from '../records/records'

/**
 * Version of the judge protocol: every text rubricate itself sends to a judge beside the caller's
 * own prompt, below. These texts are part of the judge's requests, so of their cassette keys:
 * rewording one turns every recorded request that carries it (prompt mode, every repair turn)
 * into a miss. Bump the version with any change to the text below and re-record deliberately;
 * `test/rubric/prompt-version.test.ts` holds the fingerprint of each version and fails when the
 * text changes under the same one. (ARCHITECTURE.md §14)
 */
export const JUDGE_PROTOCOL_VERSION = 'judge-v1'

/**
 * What rubricate tells a judge: the JSON instruction of prompt mode, and the repair turn with
 * the problems it names. None has the `[rubricate]` prefix: they are addressed to the model.
 * @internal
 */
export const judgeText = {
  /** The instruction appended to the prompt in prompt mode. */
  schemaInstruction: (schema: JsonSchema): string =>
    [
      'Reply with one JSON object and nothing else, matching this JSON Schema:',
      '```json',
      JSON.stringify(schema, null, 2),
      '```',
    ].join('\n'),
  /** The follow-up turn of a repair attempt: what was wrong with the previous reply. */
  repairInstruction: (problem: string, schema: JsonSchema | undefined): string => {
    const lines = [
      'Your previous reply could not be used:',
      problem,
      '',
      'Reply again with one JSON object and nothing else, fixing these problems.',
    ]
    if (schema) lines.push('It must match this JSON Schema:', JSON.stringify(schema))
    return lines.join('\n')
  },
  replyEmpty: (): string => 'The reply was empty.',
  replyNotJson: (detail: string): string => `The reply is not valid JSON: ${detail}`,
  /** One problem a schema found, as a line of the repair turn. */
  schemaIssue: (path: string, message: string): string =>
    path ? `- at "${path}": ${message}` : `- ${message}`,
  replyAmbiguous: (count: number): string =>
    `The reply holds ${count} different JSON objects that each match the format, so it is unclear which one is your answer. Reply with your own verdict only, as exactly one JSON object.`,
  replyDuplicateKey: (key: string, path: string): string =>
    `The reply's JSON has the key "${key}" twice in the same object${path === '' ? '' : ` (at "${path}")`}, so it is unclear which value you meant. Reply with one JSON object in which every key appears once.`,
  replyRefused: (refusal: string): string =>
    `The reply is a refusal (${JSON.stringify(refusal.length > 200 ? `${refusal.slice(0, 197)}...` : refusal)}), and a refusal is never read as a verdict, whatever else the reply holds. Grade the data as asked, and reply with your own verdict as one JSON object.`,
  replyQuoted: (): string =>
    'The only JSON in the reply that matches the format is copied from the data being graded, not a verdict of your own. Reply with your own verdict as one JSON object.',
}
