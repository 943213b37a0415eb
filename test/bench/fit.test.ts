// The line the suite benchmark fits through its sizes to give per-file and per-test costs.
import { expect, test } from 'vitest'
import { fitPlane } from '../../bench/measure'

test('fitPlane recovers the per-run, per-file and per-test costs of an exact plane', () => {
  const cost = (files: number, tests: number) => 300 + 40 * files + 2.5 * tests
  const points = [
    [20, 200],
    [10, 100],
    [20, 400],
    [10, 200],
  ].map(([files = 0, tests = 0]) => ({ x1: files, x2: tests, y: cost(files, tests) }))
  const [perRun, perFile, perTest] = fitPlane(points)
  expect(perRun).toBeCloseTo(300, 6)
  expect(perFile).toBeCloseTo(40, 6)
  expect(perTest).toBeCloseTo(2.5, 6)
})

test('fitPlane gives the least-squares plane through noisy points', () => {
  // Residuals +5, -5, -5, +5 cancel in every normal equation: the plane is the noiseless one.
  const points = [
    { x1: 1, x2: 1, y: 10 + 5 },
    { x1: 2, x2: 1, y: 12 - 5 },
    { x1: 1, x2: 2, y: 13 - 5 },
    { x1: 2, x2: 2, y: 15 + 5 },
  ]
  const [c0, c1, c2] = fitPlane(points)
  expect(c0).toBeCloseTo(5, 6)
  expect(c1).toBeCloseTo(2, 6)
  expect(c2).toBeCloseTo(3, 6)
})

test('fitPlane gives NaN when the sizes do not vary files and tests apart', () => {
  const points = [1, 2, 3].map((n) => ({ x1: n, x2: 2 * n, y: n }))
  expect(fitPlane(points).every(Number.isNaN)).toBe(true)
})
