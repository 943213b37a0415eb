// Watch mode and recording: Vite's real file watcher, configured by the plugin, never reports a
// cassette file, while it still reports the project's other files.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { createServer, type ViteDevServer } from 'vite'
import { afterEach, expect, test } from 'vitest'
import { rubricate } from '../../reporters/plugin'
import { tempDir } from '../support/temp-dir'

let server: ViteDevServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

async function watchedFiles(root: string, plugin: ReturnType<typeof rubricate>, write: () => void) {
  server = await createServer({
    root,
    configFile: false,
    logLevel: 'silent',
    plugins: [plugin],
    server: { middlewareMode: true, hmr: false },
  })
  const seen: string[] = []
  server.watcher.on('add', (path) => seen.push(path))
  server.watcher.on('change', (path) => seen.push(path))
  const waitFor = async (file: string) => {
    for (let waited = 0; !seen.includes(file) && waited < 10_000; waited += 50) await sleep(50)
  }
  // The watcher is live once it reports a first file; the control file is written after the
  // cassette, so once it is seen, the cassette's event would have come too.
  const first = join(root, 'src', 'first.ts')
  writeFileSync(first, 'export {}\n')
  await waitFor(first)
  write()
  const control = join(root, 'src', 'control.ts')
  writeFileSync(control, 'export {}\n')
  await waitFor(control)
  await sleep(200)
  return seen
}

test('a cassette recorded during a watch run is not seen by the watcher; other files are', async () => {
  const root = tempDir('rubricate-watch-')
  mkdirSync(join(root, 'src'))
  mkdirSync(join(root, '__cassettes__', 'ab'), { recursive: true })
  const cassette = join(root, '__cassettes__', 'ab', 'abcdef.json')
  const seen = await watchedFiles(root, rubricate({ cassettes: { mode: 'off' } }), () =>
    writeFileSync(cassette, '{}\n'),
  )
  expect(seen).toContain(join(root, 'src', 'control.ts'))
  expect(seen).not.toContain(cassette)
})

test('a cassette folder set in the plugin options is the one kept out of watch mode', async () => {
  const root = tempDir('rubricate-watch-')
  mkdirSync(join(root, 'src'))
  mkdirSync(join(root, 'recordings', 'cd'), { recursive: true })
  const cassette = join(root, 'recordings', 'cd', 'cdef01.json')
  const plugin = rubricate({ cassettes: { mode: 'off', dir: 'recordings' } })
  const seen = await watchedFiles(root, plugin, () => writeFileSync(cassette, '{}\n'))
  expect(seen).toContain(join(root, 'src', 'control.ts'))
  expect(seen).not.toContain(cassette)
})
