import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The version of the installed rubricate, read from its `package.json`: the first one named
 * `rubricate` above this module (`dist/` when installed, `src/cli/` in the repository).
 * @internal
 */
export function packageVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url))
  for (;;) {
    const file = join(dir, 'package.json')
    if (existsSync(file)) {
      const json = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string }
      if (json.name === 'rubricate' && typeof json.version === 'string') return json.version
    }
    const parent = dirname(dir)
    // Reaching the root without finding it means the package is damaged: say so, with a fix.
    if (parent === dir) {
      throw new Error(
        '[rubricate] Could not find the package.json of rubricate above the rubricate command. Reinstall rubricate (npm i -D rubricate). This is a bug in rubricate if it is installed.',
      )
    }
    dir = parent
  }
}
