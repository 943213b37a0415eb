// Scratch folders of ended runs are removed at the start of a run; anything else in the scratch
// folder, and the folders of runs that may still be going, are kept.
import { appendFileSync, existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { removeStaleRunFolders } from '../../src/cassettes/run/run-folders'
import { tempDir } from '../support/temp-dir'

const DAY = 24 * 60 * 60 * 1000

function runFolder(scratch: string, id: string, ageMs: number, files: Record<string, number> = {}) {
  const folder = join(scratch, id)
  mkdirSync(folder, { recursive: true })
  for (const [name, fileAge] of Object.entries(files)) {
    const file = join(folder, name)
    writeFileSync(file, '1\n')
    const when = new Date(Date.now() - fileAge)
    utimesSync(file, when, when)
  }
  const when = new Date(Date.now() - ageMs)
  utimesSync(folder, when, when)
  return folder
}

test('a run folder untouched for a day is removed; a recent one, or one with a fresh log, stays', () => {
  const root = tempDir('rubricate-scratch-')
  const scratch = join(root, 'node_modules', '.cache', 'rubricate')
  const ended = runFolder(scratch, '0b6e4c1a-2f3d-4e5f-8a9b-0c1d2e3f4a5b', 2 * DAY, {
    'live-1-0.log': 2 * DAY,
  })
  const recent = runFolder(scratch, '1c7f5d2b-3a4e-4f60-9bac-1d2e3f4a5b6c', 60_000)
  const stillLogging = runFolder(scratch, '2d806e3c-4b5f-4071-8cbd-2e3f4a5b6c7d', 2 * DAY, {
    'live-2-0.log': 2 * DAY,
  })
  appendFileSync(join(stillLogging, 'live-2-0.log'), '2\n')
  // Not a run folder: the nearest-entry index and the run marker live here too.
  const index = runFolder(scratch, 'nearest-index', 3 * DAY)
  writeFileSync(join(scratch, 'last-run.json'), '{}\n')

  expect(removeStaleRunFolders(root)).toEqual([ended])
  expect(existsSync(ended)).toBe(false)
  expect([recent, stillLogging, index, join(scratch, 'last-run.json')].map(existsSync)).toEqual([
    true,
    true,
    true,
    true,
  ])
})

test('a project with no scratch folder yet is left alone', () => {
  const root = tempDir('rubricate-scratch-')
  expect(removeStaleRunFolders(root)).toEqual([])
  expect(existsSync(join(root, 'node_modules'))).toBe(false)
})
