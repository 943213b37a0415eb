// Shared by the cassette tests: a fresh cassette folder per test, configuration reset after it.

import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach } from 'vitest'
import { configureRubricate, type RubricateConfig, resetRubricateConfig } from '../../src'
import { computeKey } from '../../src/cassettes/exchange/prepared-request'
import type { CassetteEntry } from '../../src/cassettes/store/cassette-entry'
import { CassetteStore } from '../../src/cassettes/store/cassette-store'
import { currentRuntime, setPluginConfig } from '../../src/runtime/runtime'
import { runtimeState } from '../../src/runtime/state'
import { tempDir } from '../support/temp-dir'

/** A new empty cassette folder for every test, set with configureRubricate. */
export function useCassetteFolder(config: RubricateConfig = {}): { dir: string } {
  const folder = { dir: '' }
  let plugin: RubricateConfig = {}
  beforeEach(() => {
    plugin = currentRuntime().layers.plugin
    // test/support/hermetic.ts turns cassettes off for the other tests; these tests set their own.
    delete process.env.RUBRICATE_CASSETTES
    folder.dir = tempDir('rubricate-cassettes-')
    configureRubricate({ ...config, cassettes: { ...config.cassettes, dir: folder.dir } })
  })
  afterEach(() => {
    resetRubricateConfig()
    setPluginConfig(plugin)
    const { run } = runtimeState()
    run.updateSnapshots = false
    run.runId = undefined
    run.root = undefined
    delete process.env.CI
    process.env.RUBRICATE_CASSETTES = 'off'
  })
  return folder
}

/** Every file under a folder, relative, sorted. */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort()
}

/** The entries of a cassette folder, decoded as replay reads them (shared schemas resolved). */
export async function entriesUnder(dir: string): Promise<any[]> {
  const store = new CassetteStore(dir)
  const { entries } = await store.list()
  return entries.map(({ file }) => store.readEntryFile(file))
}

/** The entry files of a cassette folder, relative, sorted (shared schemas left out). */
export async function entryFilesUnder(dir: string): Promise<string[]> {
  const { entries } = await new CassetteStore(dir).list()
  return entries.map(({ file }) => file.slice(dir.length + 1)).sort()
}

/** The raw JSON of the entry of `key` in a cassette folder, as it lies on disk. */
export async function rawEntry(dir: string, key: string): Promise<any> {
  const { entries } = await new CassetteStore(dir).list()
  const found = entries.find((entry) => entry.key === key)
  if (!found) throw new Error(`no entry ${key} under ${dir}`)
  return JSON.parse(await readFile(found.file, 'utf8'))
}

/** A test identity for a file of this repository. */
export function testIn(
  name: string,
  file = 'test/cassettes/example.test.ts',
): { file: string; name: string } {
  return { file: join(process.cwd(), file), name }
}

/**
 * `server.listen(options)` with options from `listenOptions`, which hold the keys of both msw
 * majors: the installed major's types know only one of them.
 */
export function listen(server: object, options: object): void {
  ;(server as { listen(options: object): void }).listen(options)
}

/** A chat completion entry of the test `test/a.test.ts > works`: the user's `content`, the model's `reply`. */
export function chatEntry(content: string, reply = 'hi'): CassetteEntry {
  const body = { model: 'gpt-4.1-mini', messages: [{ role: 'user', content }] }
  return {
    v: 2,
    key: computeKey('chat/completions', body),
    recordedAt: '2026-01-02T03:04:05.000Z',
    recordedBy: 'test/a.test.ts > works',
    request: { method: 'POST', endpoint: 'chat/completions', body },
    response: {
      status: 200,
      headers: { 'content-type': 'application/json' },
      json: { id: 'x', choices: [{ message: { role: 'assistant', content: reply } }] },
    },
  }
}
