// Where a run's history goes: the option, RUBRICATE_HISTORY, the default file; and the option's
// wrong values, refused where they are written.
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { rubricate } from '../../reporters/plugin'
import { historyPath } from '../../reporters/run-history'

const root = '/project'

test('a history path option wins over RUBRICATE_HISTORY, and is resolved against the root', () => {
  expect(historyPath('ci/history.sqlite', root, { RUBRICATE_HISTORY: '/cache/h.sqlite' })).toBe(
    join(root, 'ci/history.sqlite'),
  )
})

test('history: true writes to RUBRICATE_HISTORY when set, else to .rubricate-history.sqlite under the root', () => {
  expect(historyPath(true, root, { RUBRICATE_HISTORY: '/cache/h.sqlite' })).toBe('/cache/h.sqlite')
  expect(historyPath(true, root, {})).toBe(join(root, '.rubricate-history.sqlite'))
})

test('with no option the history is off unless RUBRICATE_HISTORY names a file; false turns it off', () => {
  expect(historyPath(undefined, root, {})).toBeUndefined()
  expect(historyPath(undefined, root, { RUBRICATE_HISTORY: 'h.sqlite' })).toBe(
    join(root, 'h.sqlite'),
  )
  expect(historyPath(false, root, { RUBRICATE_HISTORY: 'h.sqlite' })).toBeUndefined()
})

test('a history option that is neither a boolean nor a path is refused by the plugin, listing what it takes', () => {
  expect(() => rubricate({ history: 3 as unknown as string })).toThrow(
    '[rubricate] The history option must be true (the default file, .rubricate-history.sqlite), false, or the path of a history file, but got 3.',
  )
  expect(() => rubricate({ history: '  ' })).toThrow('but got "  "')
})
