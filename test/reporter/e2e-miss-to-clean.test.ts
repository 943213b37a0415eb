// End to end (issue 31, item 3): a reworded criterion misses on CI; following the command the
// miss message prints (one test, `-t`) re-records that test and leaves the cassette folder with
// only what the tests use now: the test's old entry goes, the other test's entry stays as it was.
import { readFile, writeFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { storeFor } from '../../src/cassettes/store/cassette-store'
import type { FakeOpenAI } from '../../src/testing'
import { startFixtureOpenAI } from '../support/fixture-openai'
import { copyFixture, removeCopy, runVitest } from '../support/run-vitest'

let server: FakeOpenAI
let root = ''

beforeAll(async () => {
  server = await startFixtureOpenAI()
  root = await copyFixture('rerecord-one')
})

afterAll(async () => {
  await removeCopy(root)
  await server.close()
})

/** Every entry of the copy's cassette folder: its file (relative), its test and its text. */
async function entries(): Promise<{ file: string; by: string | undefined; text: string }[]> {
  const listed = (await storeFor(join(root, '__cassettes__')).list()).entries
  const read = listed.map(async (entry) => {
    const text = await readFile(entry.file, 'utf8')
    return { file: relative(root, entry.file), by: JSON.parse(text).recordedBy, text }
  })
  return (await Promise.all(read)).sort((a, b) => a.file.localeCompare(b.file))
}

/** A POSIX command line as a shell splits it: words, and double-quoted strings unescaped. */
function words(command: string): string[] {
  return [...command.matchAll(/"((?:[^"\\]|\\.)*)"|(\S+)/g)].map(([, quoted, bare]) =>
    quoted === undefined ? (bare as string) : quoted.replace(/\\(.)/g, '$1'),
  )
}

test('following the miss message of a reworded criterion leaves only the new entry of that test, and replay passes', async () => {
  const env = { FAKE_OPENAI_URL: server.baseURL }
  const recorded = await runVitest(root, [], { env })
  expect(recorded.exitCode, recorded.stdout + recorded.stderr).toBe(0)
  const before = await entries()
  expect(before.map((entry) => entry.by)).toEqual(
    expect.arrayContaining([
      'support.test.ts > answers a refund question',
      'support.test.ts > greets the customer',
    ]),
  )
  expect(before).toHaveLength(2)
  const greeting = before.find((entry) => entry.by === 'support.test.ts > greets the customer')
  const old = before.find((entry) => entry.by === 'support.test.ts > answers a refund question')

  const testFile = join(root, 'support.test.ts')
  const source = await readFile(testFile, 'utf8')
  await writeFile(testFile, source.replace('(optional) Mentions days', '(optional) Mentions weeks'))
  const missed = await runVitest(root, [], { ci: true, env })
  expect(missed.exitCode).toBe(1)
  const command = /\nRecord it with:\n {2}(.+)\n/.exec(missed.stderr)?.[1]
  expect(command).toBe(
    'RUBRICATE_CASSETTES=auto npx vitest run support.test.ts -t "answers a refund question"',
  )
  // The miss names a reworded text, not a date or an id to normalise.
  expect(missed.stderr).toContain(
    '  changed:  messages[1].content was "…c2. [optional] Mentions days\\n\\nTask given to the age…", is now "…c2. [optional] Mentions weeks\\n\\nTask given to the age…"\n',
  )
  expect(missed.stderr).not.toContain('a date or an id?')

  // Run exactly what it printed: the variable, then the arguments after `npx vitest run`.
  const [assignment, npx, vitest, run, ...args] = words(command as string)
  expect([npx, vitest, run]).toEqual(['npx', 'vitest', 'run'])
  const [name, value] = (assignment as string).split('=') as [string, string]
  const requests = server.requests.length
  const followed = await runVitest(root, args, { env: { ...env, [name]: value } })
  expect(followed.exitCode, followed.stdout + followed.stderr).toBe(0)
  expect(server.requests.length).toBe(requests + 1)
  expect(followed.stdout).toContain(
    `Deleted 1 cassette entry that this run re-recorded (the test recorded a new entry, its request having changed, and no test used the old one): ${old?.file}.`,
  )

  const after = await entries()
  expect(after).toHaveLength(2)
  // The other test's entry, which the filtered run did not use, is the same file, byte for byte.
  expect(after).toContainEqual(greeting)
  const renewed = after.find((entry) => entry.by === 'support.test.ts > answers a refund question')
  expect(renewed?.file).not.toBe(old?.file)
  expect(renewed?.text).toContain('Mentions weeks')
  expect(after.some((entry) => entry.text.includes('Mentions days'))).toBe(false)

  const replayed = await runVitest(root, [], { ci: true, env })
  expect(replayed.exitCode, replayed.stdout + replayed.stderr).toBe(0)
  expect(replayed.stdout).toContain('Judge  2 calls: 2 replayed, 0 live')
  expect(server.requests.length).toBe(requests + 1)
}, 180_000)
