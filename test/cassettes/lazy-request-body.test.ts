// Replay reads an entry for its response: the request of a format-2 entry is parsed, and its body
// decoded, only when something reads it (a re-record comparing entries, a miss looking for the nearest one).
// What is read must be the value recorded, and a body that cannot be decoded must still be named.
import { readFileSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { parseEntry } from '../../src/cassettes/store/cassette-entry'
import { CassetteStore } from '../../src/cassettes/store/cassette-store'
import { repoRoot } from '../support/run-vitest'
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

// Replay parses the request of a file laid out as rubricate writes it only when it is read.
test('every committed cassette reads the same with its request parsed when read as parsed whole', async () => {
  let compared = 0
  for (const dir of ['examples/__cassettes__', 'examples/failing/__cassettes__']) {
    const store = new CassetteStore(join(repoRoot, dir))
    const { entries } = await store.list()
    for (const { file } of entries) {
      const text = await readFile(file, 'utf8')
      const load = (hash: string) =>
        JSON.parse(readFileSync(join(repoRoot, dir, '_shared', 'schemas', `${hash}.json`), 'utf8'))
      const whole = parseEntry(text, undefined, load)
      const lazy = parseEntry(text, undefined, load, { lazyRequest: true })
      expect(typeof whole, file).toBe('object')
      // Not parsed whole after all: the request is still to be read.
      expect(Object.getOwnPropertyDescriptor(lazy, 'request')?.get, file).toBeTypeOf('function')
      // Read member by member, so that the lazy request and body are read as a user reads them.
      expect(JSON.parse(JSON.stringify(lazy)), file).toEqual(JSON.parse(JSON.stringify(whole)))
      expect(Object.keys(lazy as object), file).toEqual(Object.keys(whole as object))
      compared++
    }
  }
  expect(compared).toBeGreaterThan(20)
})

test('an entry whose request is not valid JSON replays its response, says so when the request is read, and is named by verify', async () => {
  const store = new CassetteStore(folder.dir)
  const written = chatEntry('line one\nline two')
  const file = await store.write(written)
  const text = await readFile(file, 'utf8')
  const broken = text.replace('"endpoint": "chat/completions",', '"endpoint": chat/completions,')
  expect(broken).not.toBe(text)
  await writeFile(file, broken)

  const read = new CassetteStore(folder.dir).read(written.key)
  expect(read?.response.json).toEqual(written.response.json)
  expect(() => read?.request).toThrow(/^its request is not valid JSON \(/)
  expect(new CassetteStore(folder.dir).readEntryFile(file)).toMatch(/^it is not valid JSON \(/)
})

test('an entry laid out otherwise (minified, members reordered, a member after the response) is parsed whole and replays', async () => {
  const store = new CassetteStore(folder.dir)
  const written = chatEntry('line one\nline two')
  const file = await store.write(written)
  const data = JSON.parse(await readFile(file, 'utf8'))
  const { request, response, ...head } = data
  const layouts = {
    minified: JSON.stringify(data),
    'response first': JSON.stringify({ ...head, response, request }, null, 2),
    'a member after the response': JSON.stringify({ ...data, note: 'hand-written' }, null, 2),
    'indented by four': JSON.stringify(data, null, 4),
  }
  for (const [layout, text] of Object.entries(layouts)) {
    await writeFile(file, text)
    const read = new CassetteStore(folder.dir).read(written.key)
    expect(read?.response.json, layout).toEqual(written.response.json)
    expect(read?.request.body, layout).toEqual(written.request.body)
    expect(read?.request.endpoint, layout).toBe('chat/completions')
  }
  // A response that is no object is found wrong in any layout.
  await writeFile(file, JSON.stringify({ ...data, response: 'none' }, null, 2))
  expect(() => new CassetteStore(folder.dir).read(written.key)).toThrow(
    'it has no "response" object',
  )
})
