// No function on one assertion's path is over 60 lines (ARCHITECTURE.md, "The path of one
// assertion"), counted by scripts/long-functions.mjs with the TypeScript compiler.
import { resolve } from 'node:path'
import { expect, test } from 'vitest'
// @ts-expect-error: a plain ES module script, without declarations
import { ASSERTION_PATH, longFunctions } from '../../scripts/long-functions.mjs'

const root = resolve(import.meta.dirname, '../..')

test('no function on the assertion path is over 60 lines', () => {
  const found = (longFunctions(ASSERTION_PATH, { root }) as { file: string; name: string }[]).map(
    ({ file, name }) => `${file}: ${name}`,
  )
  expect(found).toEqual([])
})
