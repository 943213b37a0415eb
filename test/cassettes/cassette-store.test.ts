import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { CassetteStore } from '../../src/cassettes/store/cassette-store'
import { displayPath } from '../../src/config/paths'
import { linked } from '../support/error-page'
import { chatEntry, filesUnder, useCassetteFolder } from './support'

const folder = useCassetteFolder()

test('an entry is written under its test, <test file>/<test name>.<key prefix>.json, pretty-printed in a fixed order, and read back', async () => {
  const store = new CassetteStore(folder.dir)
  const written = chatEntry('hello')
  await store.write(written)
  expect(await filesUnder(folder.dir)).toEqual([
    `test/a.test.ts/works.${written.key.slice(0, 12)}.json`,
  ])
  const text = await readFile(store.file(written.key), 'utf8')
  expect(text).toBe(`{
  "v": 2,
  "recordedBy": "test/a.test.ts > works",
  "key": "${written.key}",
  "recordedAt": "2026-01-02T03:04:05.000Z",
  "request": {
    "method": "POST",
    "endpoint": "chat/completions",
    "body": {
      "messages": [
        {
          "content": "hello",
          "role": "user"
        }
      ],
      "model": "gpt-4.1-mini"
    }
  },
  "response": {
    "status": 200,
    "headers": {
      "content-type": "application/json"
    },
    "json": {
      "choices": [
        {
          "message": {
            "content": "hi",
            "role": "assistant"
          }
        }
      ],
      "id": "x"
    }
  }
}
`)
  expect(new CassetteStore(folder.dir).read(written.key)).toEqual(written)
  expect(store.read('0'.repeat(64))).toBeUndefined()
})

test('a corrupt file is RUBRICATE_CASSETTE_CORRUPT naming the file, and is left as it was', async () => {
  const store = new CassetteStore(folder.dir)
  const key = 'ab'.repeat(32)
  const file = join(folder.dir, 'ab', `${key}.json`)
  await mkdir(join(folder.dir, 'ab'))
  await writeFile(file, '{"v": 1, "key": ')
  expect(() => store.read(key)).toThrowError(
    expect.objectContaining({
      code: 'RUBRICATE_CASSETTE_CORRUPT',
      file,
      message: linked(
        `[rubricate] The cassette file "${file}" cannot be used: it is not valid JSON (Unexpected end of JSON input). It was left as it was. Restore it from version control, or delete it and record it again with RUBRICATE_CASSETTES=auto; "npx rubricate cassettes verify" checks every file.`,
        'cassette-corrupt',
      ),
    }),
  )
  expect(await readFile(file, 'utf8')).toBe('{"v": 1, "key": ')
})

test('a file whose content does not fit the entry format is corrupt, with the reason', async () => {
  const store = new CassetteStore(folder.dir)
  const good = chatEntry('x')
  await store.write(good)
  const other = chatEntry('y')
  await writeFile(store.file(good.key), JSON.stringify({ ...other }))
  expect(() => store.read(good.key)).toThrowError(
    `its "key" is ${other.key}, but the file is named for ${good.key}`,
  )
  await writeFile(
    store.file(good.key),
    JSON.stringify({ ...good, response: { status: 200, headers: {} } }),
  )
  expect(() => store.read(good.key)).toThrowError(
    'its "response" must hold exactly one of "json", "text", "base64", "sse"',
  )
})

test('many concurrent writes, distinct and repeated keys, leave whole files and no temp file', async () => {
  const store = new CassetteStore(folder.dir)
  const entries = Array.from({ length: 60 }, (_, i) => chatEntry(`message ${i % 40}`))
  await Promise.all(entries.map((e) => store.write(e)))
  const files = await filesUnder(folder.dir)
  expect(files).toHaveLength(40)
  expect(files.every((f) => f.endsWith('.json'))).toBe(true)
  for (const e of entries) expect(store.read(e.key)).toEqual(e)
  const listing = await store.list()
  expect(listing.entries).toHaveLength(40)
  expect(listing.others).toEqual([])
})

test('an entry path that cannot be read (a folder in its place) is RUBRICATE_CASSETTE_CORRUPT naming it', async () => {
  const store = new CassetteStore(folder.dir)
  const key = 'cd'.repeat(32)
  const file = join(folder.dir, 'cd', `${key}.json`)
  await mkdir(file, { recursive: true })
  expect(() => store.read(key)).toThrowError(
    expect.objectContaining({
      code: 'RUBRICATE_CASSETTE_CORRUPT',
      file,
      message: linked(
        `[rubricate] The cassette file "${file}" cannot be used: it cannot be read (EISDIR: illegal operation on a directory, read). It was left as it was. Restore it from version control, or delete it and record it again with RUBRICATE_CASSETTES=auto; "npx rubricate cassettes verify" checks every file.`,
        'cassette-corrupt',
      ),
    }),
  )
})

test('a store shows its files as the messages show any path: relative to the project inside it, whole outside it', () => {
  const key = chatEntry('hello').key
  const by = 'test/a.test.ts > works'
  for (const dir of [folder.dir, process.cwd(), join(process.cwd(), 'cassettes', 'judge')]) {
    const store = new CassetteStore(dir)
    expect(store.shownFile(key, by)).toBe(displayPath(store.file(key, by)))
  }
  expect(new CassetteStore(process.cwd()).shownFile(key, by)).toBe(
    `test/a.test.ts/works.${key.slice(0, 12)}.json`,
  )
  expect(new CassetteStore(join(process.cwd(), 'cassettes')).shownFile(key, by)).toBe(
    `cassettes/test/a.test.ts/works.${key.slice(0, 12)}.json`,
  )
})
