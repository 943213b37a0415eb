// Group 20, through Vitest itself: scores that are not scores. A fixture project's evals plant an
// infinite score on one row of ten, a negative lower-is-better rate, a score of 5 on an undeclared
// scale, and a mean over 1 scored row of 10. None of them may reach a gate as a number: the row
// is an error naming the scorer, the row and the value, and a gate says over how many rows its
// mean was taken and is unmet below its coverage floor.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { RubricateJsonReport } from '../../reporters/index'
import { runVitest, type VitestRun } from '../support/run-vitest'

let dir = ''
let run: VitestRun
let report: RubricateJsonReport
let jest: {
  testResults: {
    assertionResults: { fullName: string; status: string; failureMessages: string[] }[]
  }[]
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rubricate-scores-'))
  run = await runVitest(
    'reliability-scores',
    [
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${join(dir, 'vitest.json')}`,
      `--outputFile.rubricate=${join(dir, 'rubricate.json')}`,
    ],
    { env: { RUBRICATE_CASSETTES: 'off' } },
  )
  report = JSON.parse(await readFile(join(dir, 'rubricate.json'), 'utf8'))
  jest = JSON.parse(await readFile(join(dir, 'vitest.json'), 'utf8'))
}, 120_000)

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true })
})

function suite(name: string) {
  const found = report.summary.evals?.find((one) => one.name === name)
  if (!found) throw new Error(`No eval "${name}":\n${run.stdout}\n${run.stderr}`)
  return found
}

function row(fullName: string) {
  const found = jest.testResults
    .flatMap((file) => file.assertionResults)
    .find((one) => one.fullName === fullName)
  if (!found) throw new Error(`No test "${fullName}":\n${run.stdout}`)
  return found
}

describe('20. Scores that are not scores', () => {
  test('the run fails', () => {
    expect(run.exitCode, run.stdout + run.stderr).toBe(1)
  })

  test('an object scorer that passes with an infinite score makes its row an error naming the scorer, the row and the value', () => {
    const result = row('infinite score row 1')
    expect(result.status).toBe('failed')
    expect(result.failureMessages.join('\n')).toContain(
      '[rubricate] The scorer "confidence" returned the score Infinity on the row "row 1", which is not a finite number in its range [0, 1].',
    )
  })

  test('the infinite score reaches no mean: the gate is unmet over the 9 rows that scored, and the JSON mean is a number', () => {
    const infinite = suite('infinite score')
    expect(infinite.scorers).toEqual([{ id: 'confidence', mean: 0, scored: 9 }])
    expect(infinite.meanGates).toEqual([
      {
        scorer: 'confidence',
        direction: 'min',
        threshold: 0.9,
        mean: 0,
        passed: false,
        scored: 9,
        total: 10,
        minCoverage: 1,
      },
    ])
    expect(infinite.gatePassed).toBe(false)
    expect(run.stdout).not.toContain('Infinity (≥')
    expect(run.stdout).toContain(
      'mean: confidence 0 (≥ 0.9 ✗, mean over 9 of 10 rows scored, needs 100%)',
    )
  })

  test('a lower-is-better scorer that returns -1 is an error on each row, not a rate under its bound', () => {
    expect(row('negative rate row 1').failureMessages.join('\n')).toContain(
      'The scorer "hallucination" returned the score -1 on the row "row 1", which is not within its range [0, 1].',
    )
    const negative = suite('negative rate')
    expect(negative.errored).toBe(2)
    expect(negative.gatePassed).toBe(false)
    expect(run.stdout).not.toContain('↓ -1')
  })

  test('a score of 5 on an undeclared scale is an error, not half of a weighted mean of 2.5', () => {
    expect(row('undeclared scale row 1').failureMessages.join('\n')).toContain(
      'The scorer "stars" returned the score 5 on the row "row 1", which is not within its range [0, 1].',
    )
    const undeclared = suite('undeclared scale')
    expect(undeclared.gatePassed).toBe(false)
    expect(run.stdout).not.toContain('weighted mean 2.5')
  })

  test('a declared range puts a score on the weighted mean’s scale: 5 of [0, 5] counts as 1', () => {
    const declared = suite('declared scale')
    expect(declared.errored).toBe(0)
    expect(declared.scorers).toContainEqual({ id: 'stars', mean: 5, scored: 2, range: [0, 5] })
    expect(declared.meanGates).toEqual([
      {
        direction: 'min',
        threshold: 0.75,
        mean: 0.5,
        passed: false,
        scored: 2,
        total: 2,
        minCoverage: 1,
      },
    ])
  })

  test('a mean gate over 1 scored row of 10 is unmet, and its line says so', () => {
    const partial = suite('partial coverage')
    expect(partial.meanGates?.[0]).toMatchObject({ mean: 1, passed: false, scored: 1, total: 10 })
    expect(run.stdout).toContain('validJson 1 (≥ 0.9 ✗, mean over 1 of 10 rows scored, needs 100%)')
  })

  test('a coverage floor lowered on purpose meets the gate, and the line still shows the coverage', () => {
    const declared = suite('declared coverage')
    expect(declared.meanGates?.[0]).toMatchObject({ passed: true, scored: 1, total: 10 })
    expect(declared.gatePassed).toBe(true)
    expect(run.stdout).toContain('validJson 1 (≥ 0.9 ✓, mean over 1 of 10 rows scored)')
  })
})
