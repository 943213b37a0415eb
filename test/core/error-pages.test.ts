import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import {
  CassetteCorruptError,
  CassetteMissError,
  CassetteWriteError,
  JudgeOutputError,
  JudgeRequestError,
  LimitError,
  NetworkBlockedError,
  NoJudgeError,
  type RubricateError,
  ScorerRunError,
  SecretInCassetteError,
  UsageError,
  withoutErrorPage,
} from '../../src/errors'
import { loopFeedback } from '../../src/loop/loop-feedback'
import { messages } from '../../src/messages'
import { errorPageLine, linked } from '../support/error-page'

const step = { failedStep: 'analyze', completedSteps: [] }
const errors: [RubricateError, string][] = [
  [new NoJudgeError('[rubricate] m'), 'no-judge'],
  [new JudgeOutputError('[rubricate] m', 'raw'), 'judge-output'],
  [new JudgeRequestError('[rubricate] m', 503), 'judge-request'],
  [new CassetteMissError('[rubricate] m', 'k'), 'cassette-miss'],
  [new CassetteCorruptError('[rubricate] m', 'f'), 'cassette-corrupt'],
  [new CassetteWriteError('[rubricate] m', 'f'), 'cassette-write'],
  [new SecretInCassetteError('[rubricate] m'), 'secret-in-cassette'],
  [new NetworkBlockedError('[rubricate] m'), 'network-blocked'],
  [new ScorerRunError('[rubricate] m', step), 'scorer-run'],
  [new LimitError('[rubricate] m'), 'limit'],
  [new UsageError('[rubricate] m'), 'usage'],
]

test('every error class ends its message with one line that links to its code’s page', () => {
  for (const [error, page] of errors)
    expect(error.message, page).toBe(linked('[rubricate] m', page))
})

test('every linked page is a page of the docs site, and every page there is a code’s', () => {
  const pages = readdirSync(join(import.meta.dirname, '../../docs/errors'))
    .filter((name) => name !== 'index.md')
    .map((name) => name.replace(/\.md$/, ''))
  expect(errors.map(([, page]) => page).sort()).toEqual(pages.sort())
})

test('a message that tells another error’s inside its own keeps one link, its own code’s', () => {
  const cause = new JudgeRequestError('[rubricate] The judge "j" failed: down.')
  const wrapped = new ScorerRunError(messages.scorerRunFailed('s', 'analyze', cause), step)
  expect(wrapped.message).toBe(
    linked(
      '[rubricate] Scorer "s" failed in step "analyze": The judge "j" failed: down.',
      'scorer-run',
    ),
  )
  // Built again from a message that already ends with a link: still one.
  expect(new UsageError(wrapped.message).message).toBe(
    linked('[rubricate] Scorer "s" failed in step "analyze": The judge "j" failed: down.', 'usage'),
  )
})

test('the loop’s feedback to the agent carries no link, so its cassette keys did not change', () => {
  const error = new UsageError('[rubricate] The rubric is empty.')
  expect(loopFeedback.scorerThrew('rubric', error)).toBe(
    'Scorer "rubric" threw an error, so the output could not be checked: [rubricate] The rubric is empty.',
  )
})

test('withoutErrorPage removes only a link on the last line', () => {
  const link = errorPageLine('usage')
  expect(withoutErrorPage(`a${link}`)).toBe('a')
  expect(withoutErrorPage(`a${link}\nmore`)).toBe(`a${link}\nmore`)
  expect(withoutErrorPage('a\nSee https://example.com/errors/usage')).toBe(
    'a\nSee https://example.com/errors/usage',
  )
})
