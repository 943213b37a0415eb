#!/usr/bin/env node
// Runs one CI lane other than the repository's own (Node 20, package.json and package-lock.json):
// the same sources and tests, on another Node and other versions of the peer dependencies.
//
//   node .ci/lane.mjs run <lane> [-- <command>]
//                                    copy the repository to a temporary folder, put the lane's
//                                    package.json and package-lock.json in place, `npm ci` with
//                                    the lane's Node, then run the lane's commands there (or the
//                                    command given, e.g. `-- npx vitest run test/cassettes`)
//   node .ci/lane.mjs sync <lane>    write the lane's lock file anew (after lane.json or the
//                                    repository's dependencies changed), with the lane's Node
//
// A lane is a folder .ci/lanes/<lane>/ holding lane.json (the Node version, the devDependencies
// (and dependencies, such as zod)
// whose versions differ from the repository's, those it leaves out, the commands) and the lane's package-lock.json.
// The lane's package.json is the repository's with those versions swapped in, written at each run,
// so a change to the repository's scripts or fields reaches every lane; `npm ci` refuses a lock
// file that no longer matches the dependencies, and `sync` writes a new one.
// Environment: RUBRICATE_LANE_DIR=<folder> runs in that folder instead of a temporary one and
// keeps it (a second run there skips `npm ci` when the lock file is unchanged).
import { execFileSync, spawnSync } from 'node:child_process'
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')
const [action, name, separator, ...command] = process.argv.slice(2)
if (!['run', 'sync'].includes(action) || !name || (separator !== undefined && separator !== '--')) {
  fail('usage: node .ci/lane.mjs run <lane> [-- <command>] | sync <lane>')
}
const laneDir = join(root, '.ci/lanes', name)
if (!existsSync(join(laneDir, 'lane.json')))
  fail(`No lane "${name}": ${laneDir}/lane.json is missing.`)
const lane = JSON.parse(readFileSync(join(laneDir, 'lane.json'), 'utf8'))
const manifest = `${JSON.stringify(laneManifest(), null, 2)}\n`
// Extra npm flags of the lane (lane.json "npmFlags"), for install and ci alike: Vitest 5 lanes
// pass --legacy-peer-deps, since @mastra/evals 1.10 (a devDependency of the Mastra tests) declares
// an optional peer vitest <5 that it does not use at run time.
const npmFlags = lane.npmFlags ?? []

const started = Date.now()
let env = process.env
const nodeBin = laneNode(lane.node)
env = { ...process.env, PATH: `${dirname(nodeBin)}:${process.env.PATH}` }
process.on('exit', () => rmSync(dirname(nodeBin), { recursive: true, force: true }))

if (action === 'sync') {
  const scratch = mkdtempSync(join(tmpdir(), `rubricate-lane-sync-${name}-`))
  writeFileSync(join(scratch, 'package.json'), manifest)
  if (existsSync(join(laneDir, 'package-lock.json'))) {
    copyFileSync(join(laneDir, 'package-lock.json'), join(scratch, 'package-lock.json'))
  }
  sh('npm', ['install', '--package-lock-only', '--no-audit', '--no-fund', ...npmFlags], scratch)
  copyFileSync(join(scratch, 'package-lock.json'), join(laneDir, 'package-lock.json'))
  rmSync(scratch, { recursive: true, force: true })
  console.log(`[lane ${name}] .ci/lanes/${name}/package-lock.json written; commit it.`)
  process.exit(0)
}

const keep = process.env.RUBRICATE_LANE_DIR !== undefined
const work = keep
  ? resolve(process.env.RUBRICATE_LANE_DIR)
  : join(mkdtempSync(join(tmpdir(), `rubricate-lane-${name}-`)), 'rubricate')
let status = 1
try {
  copySources(work)
  const lock = join(work, 'package-lock.json')
  const installed = join(work, 'node_modules/.package-lock.json')
  const unchanged =
    keep &&
    existsSync(installed) &&
    readFileSync(lock, 'utf8') === readFileSync(join(laneDir, 'package-lock.json'), 'utf8')
  writeFileSync(join(work, 'package.json'), manifest)
  copyFileSync(join(laneDir, 'package-lock.json'), lock)
  console.log(`[lane ${name}] node ${sh(nodeBin, ['--version'], work, true).trim()} in ${work}`)
  if (!unchanged) {
    try {
      sh('npm', ['ci', '--no-audit', '--no-fund', ...npmFlags], work)
    } catch (error) {
      console.error(
        `[lane ${name}] If npm says the lock file is out of sync, the repository's dependencies changed: run "node .ci/lane.mjs sync ${name}" and commit .ci/lanes/${name}/package-lock.json.`,
      )
      throw error
    }
  }
  const versions = Object.keys(lane.devDependencies)
  console.log(
    `[lane ${name}] ${versions.map((dep) => `${dep}@${installedVersion(work, dep)}`).join(' ')}`,
  )
  const commands = command.length > 0 ? [command.join(' ')] : lane.commands
  for (const line of commands) {
    console.log(`[lane ${name}] $ ${line}`)
    sh('bash', ['-c', line], work)
  }
  status = 0
} catch (error) {
  console.error(`[lane ${name}] FAILED: ${error.message}`)
} finally {
  if (!keep) rmSync(dirname(work), { recursive: true, force: true })
  console.log(
    `[lane ${name}] ${status === 0 ? 'passed' : 'failed'} in ${Math.round((Date.now() - started) / 1000)} s`,
  )
}
process.exit(status)

/** The repository's package.json with the lane's devDependencies swapped in. */
function laneManifest() {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  for (const [dep, version] of Object.entries(lane.devDependencies)) {
    if (!(dep in manifest.devDependencies)) {
      fail(`The lane "${name}" pins ${dep}, which is not a devDependency of the repository.`)
    }
    manifest.devDependencies[dep] = version
  }
  // A devDependency the lane leaves out (lane.json "withoutDevDependencies"): better-sqlite3, so
  // that the run history's tests there go through Node's own node:sqlite (ARCHITECTURE.md §9.3),
  // and API Extractor, whose report is checked in the node20 lane alone.
  for (const dep of lane.withoutDevDependencies ?? []) {
    if (!(dep in manifest.devDependencies)) {
      fail(`The lane "${name}" leaves out ${dep}, which is not a devDependency of the repository.`)
    }
    delete manifest.devDependencies[dep]
  }
  // A dependency of the package itself (zod) pinned to the lowest version its range allows.
  for (const [dep, version] of Object.entries(lane.dependencies ?? {})) {
    if (!(dep in manifest.dependencies)) {
      fail(`The lane "${name}" pins ${dep}, which is not a dependency of the repository.`)
    }
    manifest.dependencies[dep] = version
  }
  return manifest
}

/** The Node binary of the lane, from the registry's `node` package (cached by npx). */
function laneNode(version) {
  const execPath = sh(
    'npx',
    ['-y', '-p', `node@${version}`, 'node', '-e', 'process.stdout.write(process.execPath)'],
    root,
    true,
  )
  // A folder holding only `node`, first on PATH: npm and every script then run on this Node.
  const bin = mkdtempSync(join(tmpdir(), `rubricate-node-${version}-`))
  symlinkSync(execPath, join(bin, 'node'))
  return join(bin, 'node')
}

/** The files git would commit (tracked, plus new ones not ignored), as they are on disk. */
function copySources(to) {
  const listed = execFileSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    {
      cwd: root,
      encoding: 'utf8',
    },
  )
  for (const file of listed.split('\0')) {
    if (!file || !existsSync(join(root, file))) continue
    mkdirSync(dirname(join(to, file)), { recursive: true })
    copyFileSync(join(root, file), join(to, file))
  }
  // Biome reads .gitignore through git, so the copy is a (commit-less) git repository too.
  if (!existsSync(join(to, '.git'))) sh('git', ['init', '-q'], to)
}

function installedVersion(dir, dep) {
  return JSON.parse(readFileSync(join(dir, 'node_modules', dep, 'package.json'), 'utf8')).version
}

function sh(command, args, cwd, capture = false) {
  const result = spawnSync(command, args, {
    cwd,
    env,
    encoding: 'utf8',
    stdio: capture ? ['ignore', 'pipe', 'inherit'] : 'inherit',
  })
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited with ${result.status ?? result.signal}`)
  }
  return result.stdout ?? ''
}

function fail(message) {
  console.error(`[lane] ${message}`)
  process.exit(2)
}
