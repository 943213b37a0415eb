// Build the package when dist/ is missing or older than its sources, so that `npm run examples`
// works on a fresh clone (`npm ci && npm run examples`) and stays fast after that. With `--check`,
// only say whether a build is needed (exit code 1 when it is).
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')
const ENTRIES = [
  'index.js',
  'plugin.js',
  'reporter.js',
  'setup.js',
  'matchers.js',
  'testing.js',
  'cli.js',
]
const SOURCES = ['src', 'matchers', 'reporters', 'package.json', 'tsup.config.ts', 'tsconfig.json']

const reason = whyBuild()
if (reason && process.argv.includes('--check')) {
  console.error(`dist/ is out of date: ${reason}. Run "npm run build".`)
  process.exit(1)
}
if (reason) {
  console.log(`Building rubricate first: ${reason}.`)
  const result = spawnSync('npm', ['run', 'build'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    shell: process.platform === 'win32',
  })
  if (result.status !== 0) {
    console.error('The build failed: run "npm run build" to see why.')
    process.exit(result.status ?? 1)
  }
}

function whyBuild() {
  const missing = ENTRIES.filter((entry) => !existsSync(join(root, 'dist', entry)))
  if (missing.length > 0) return `dist/ has no ${missing.join(', ')}`
  const built = Math.min(...ENTRIES.map((entry) => statSync(join(root, 'dist', entry)).mtimeMs))
  const newer = sourceFiles().find((file) => statSync(file).mtimeMs > built)
  return newer ? `${relative(root, newer)} changed since the last build` : undefined
}

function sourceFiles() {
  const files = []
  const walk = (path) => {
    if (!statSync(path).isDirectory()) return files.push(path)
    for (const entry of readdirSync(path)) walk(join(path, entry))
  }
  for (const source of SOURCES) walk(join(root, source))
  return files
}
