// Replay reads an entry for its response: the request body of a format-2 entry is decoded only
// when something reads it (a re-record comparing entries, a miss looking for the nearest one).
// What is read must be the value recorded, and a body that cannot be decoded must still be named.
import { readFile, writeFile } from 'node:fs/promises'
import { expect, test } from 'vitest'
import { CassetteStore } from '../../src/cassettes/store/cassette-store'
import { chatEntry, useCassetteFolder } from './support'

const folder = useCassetteFolder()

test('a read entry gives back its multi-line request body as recorded, in a copy, a spread and JSON alike', async () => {
  const written = chatEntry('line one\nline two\n\nline four')
  await new CassetteStore(folder.dir).write(written)
  // A store of its own, as a new process would read the file.
  const read = new CassetteStore(folder.dir).read(written.key)
  expect(read?.request.body).toEqual(written.request.body)
  expect({ ...read?.request }.body).toEqual(written.request.body)
  expect(JSON.parse(JSON.stringify(read)).request.body).toEqual(written.request.body)
  expect(structuredClone(read)?.request.body).toEqual(written.request.body)
  // Read once, it is a plain value, which may be replaced like any other.
  if (!read) throw new Error('no entry')
  read.request.body = 'replaced'
  expect(read.request.body).toBe('replaced')
})

test('an entry whose request body cannot be decoded replays its response by its key, says what is wrong when the body is read, is named by verify, and is replaced by a re-record', async () => {
  const store = new CassetteStore(folder.dir)
  const written = chatEntry('line one\nline two')
  const file = await store.write(written)
  const text = await readFile(file, 'utf8')
  const broken = text.replace('"line two"', '2')
  expect(broken).not.toBe(text)
  await writeFile(file, broken)

  const read = new CassetteStore(folder.dir).read(written.key)
  expect(read?.response.json).toEqual(written.response.json)
  expect(() => read?.request.body).toThrow(
    'its request body cannot be decoded: a "$lines" value is not a list of strings',
  )
  // What verify, stats, diff and migrate read: the whole entry, decoded at once.
  expect(new CassetteStore(folder.dir).readEntryFile(file)).toBe(
    'its values cannot be decoded: a "$lines" value is not a list of strings',
  )

  const again = chatEntry('line one\nline two', 'a new reply')
  expect(await new CassetteStore(folder.dir).write(again)).toBe(file)
  const replaced = new CassetteStore(folder.dir).read(again.key)
  expect(replaced?.request.body).toEqual(again.request.body)
  expect(replaced?.response.json).toEqual(again.response.json)
})
