#!/usr/bin/env node
// The documentation site's build and checks (README "Developing rubricate").
//
//   node scripts/docs.mjs check   every internal link of README.md and docs/ points at a page that
//                                 exists and, with a #fragment, at a heading of that page; every
//                                 `ts` code block of the Guide (docs/guide/) type-checks against
//                                 the package's own sources, as a user's file would; every file a
//                                 page includes (VitePress's `<<< @/../examples/x.test.ts`) exists,
//                                 with its `#region`, and lies under examples/, whose files
//                                 `npm test` type-checks and runs
//                                 every error code (the `RubricateErrorCode` union) has its page in
//                                 docs/errors/ and a row of its index, every page there is a
//                                 code's, and the site address the messages link to (`DOCS_SITE`)
//                                 ends in the VitePress config's `base`
//   node scripts/docs.mjs build   the checks, then the VitePress build (docs/ has its own
//                                 package.json and lock file, installed here when missing, so the
//                                 library's CI lanes do not carry VitePress)
//
// A code block may need names it does not define (the reply under test, the agent): an HTML
// comment right above its fence declares them, invisible on the page:
//   <!-- check: declare const reply: string -->
// and `<!-- check: skip -->` leaves one block out (a signature summary, not a program).
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')
const docs = join(root, 'docs')
const [action] = process.argv.slice(2)
if (action !== 'check' && action !== 'build') {
  console.error('usage: node scripts/docs.mjs check | build')
  process.exit(2)
}

const pages = [join(root, 'README.md'), ...markdownFiles(docs)]
const problems = [
  ...checkLinks(pages),
  ...checkSnippets(pages),
  ...checkErrorPages(),
  ...typeCheckGuide(),
]
if (problems.length > 0) {
  console.error(`docs: ${problems.length} problem(s):\n${problems.map((p) => `  ${p}`).join('\n')}`)
  process.exit(1)
}
console.log(
  `docs: ${pages.length} pages, every internal link and anchor resolves, every error code has its page; the Guide's code type-checks`,
)

if (action === 'build') {
  if (!existsSync(join(docs, 'node_modules/.bin/vitepress'))) {
    execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: docs, stdio: 'inherit' })
  }
  execFileSync(join(docs, 'node_modules/.bin/vitepress'), ['build', '.'], {
    cwd: docs,
    stdio: 'inherit',
  })
}

/** Every Markdown file under a folder, without dependencies and the build output. */
function markdownFiles(dir) {
  const found = []
  for (const item of readdirSync(dir, { withFileTypes: true })) {
    if (item.name === 'node_modules' || item.name === 'dist' || item.name === 'cache') continue
    const path = join(dir, item.name)
    if (item.isDirectory()) found.push(...markdownFiles(path))
    else if (item.name.endsWith('.md')) found.push(path)
  }
  return found
}

/** The text outside code fences, as lines, and the fences as blocks with the comment above each. */
function parse(file) {
  const lines = readFileSync(file, 'utf8').split('\n')
  const prose = []
  const blocks = []
  let open = null
  for (const [index, line] of lines.entries()) {
    const fence = /^\s*(`{3,})(\S*)/.exec(line)
    if (open) {
      if (fence && fence[1].length >= open.ticks && line.trim() === fence[1]) {
        blocks.push(open)
        open = null
      } else open.code.push(line)
    } else if (fence) {
      const above = lines[index - 1] ?? ''
      const check = /^<!-- check: (.*) -->$/.exec(above.trim())
      open = {
        ticks: fence[1].length,
        lang: fence[2],
        code: [],
        line: index + 1,
        check: check?.[1],
      }
    } else prose.push(line)
  }
  return { prose, blocks }
}

/** VitePress's heading ids (the slugify of @mdit-vue/shared). */
function slug(text) {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036F]/g, '')
    .replace(/[\s~`!@#$%^&*()\-_+=[\]{}|\\;:"'“”‘’<>,.?/]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '')
    .replace(/^(\d)/, '_$1')
    .toLowerCase()
}

function anchors(file) {
  const ids = new Set()
  for (const line of parse(file).prose) {
    const heading = /^#{1,6}\s+(.*?)\s*$/.exec(line)
    if (heading) ids.add(slug(heading[1].replace(/`/g, '')))
  }
  return ids
}

/** The file a link names, or undefined: `./x`, `../x`, `/guide/x`, `x.md`, a folder's index. */
function target(from, path) {
  const base = path.startsWith('/') ? join(docs, path) : resolve(dirname(from), path)
  const candidates = path.endsWith('/')
    ? [join(base, 'index.md')]
    : [base, `${base}.md`, join(base, 'index.md')]
  // A site-absolute link to an image or file is served from docs/public/.
  if (path.startsWith('/')) candidates.push(join(docs, 'public', path))
  return candidates.find((candidate) => existsSync(candidate) && !candidate.endsWith('/'))
}

function checkLinks(files) {
  const problems = []
  for (const file of files) {
    const { prose } = parse(file)
    for (const line of prose) {
      for (const match of line.matchAll(/\]\(([^)\s]+)\)/g)) {
        const link = match[1]
        if (/^[a-z]+:/i.test(link)) continue
        const [path, fragment] = link.split('#')
        const where = relative(root, file)
        const page = path === '' ? file : target(file, decodeURI(path))
        if (!page) {
          problems.push(`${where}: the link "${link}" names no file`)
          continue
        }
        if (fragment && page.endsWith('.md') && !anchors(page).has(fragment)) {
          problems.push(`${where}: the link "${link}" names no heading of ${relative(root, page)}`)
        }
      }
    }
  }
  return problems
}

/**
 * The files pages include with VitePress's `<<< path[#region][{lines}]` (`@` is docs/). VitePress
 * renders a missing file as a line of text, not an error, so the check is here. An included file
 * must lie under examples/: `npm test` type-checks and replays those, so a page shows code that runs.
 */
function checkSnippets(files) {
  const problems = []
  for (const file of files) {
    for (const line of parse(file).prose) {
      const include = /^<<<\s+(\S+)/.exec(line.trim())
      if (!include) continue
      const where = relative(root, file)
      const [path, region] = include[1].replace(/\{[^}]*\}$/, '').split('#')
      const included = path.startsWith('@/')
        ? join(docs, path.slice(2))
        : resolve(dirname(file), path)
      if (!existsSync(included)) {
        problems.push(`${where}: the include "${include[1]}" names no file`)
        continue
      }
      if (!relative(join(root, 'examples'), included).match(/^[^.]/)) {
        problems.push(
          `${where}: the include "${include[1]}" is outside examples/, where npm test runs the code`,
        )
      }
      if (region && !readFileSync(included, 'utf8').includes(`#region ${region}`)) {
        problems.push(`${where}: the include "${include[1]}" names no "#region ${region}"`)
      }
    }
  }
  return problems
}

/** Every `.ts` file under a folder. */
function sourceFiles(dir) {
  const found = []
  for (const item of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, item.name)
    if (item.isDirectory()) found.push(...sourceFiles(path))
    else if (item.name.endsWith('.ts')) found.push(path)
  }
  return found
}

/**
 * Error codes and their pages, both ways: a message links to `errors/<code>` (RubricateError), so a
 * code without a page is a dead link in every such message, and a page without a code is stale.
 * The codes are read from the `RubricateErrorCode` union wherever under src/ it lives.
 */
function checkErrorPages() {
  const problems = []
  const source = sourceFiles(join(root, 'src'))
    .map((file) => ({ file, text: readFileSync(file, 'utf8') }))
    .find(({ text }) => /export type RubricateErrorCode\b/.test(text))
  if (!source) return ['src/: no file declares "export type RubricateErrorCode"']
  const where = relative(root, source.file)
  const union = /export type RubricateErrorCode\s*=([^;]*?)(?:\n\n|;|\n(?!\s*\|))/.exec(source.text)
  const codes = [...(union?.[1] ?? '').matchAll(/'(RUBRICATE_[A-Z_]+)'/g)].map((match) => match[1])
  if (codes.length === 0) return [`${where}: no code found in the RubricateErrorCode union`]
  const pageOf = (code) => code.slice('RUBRICATE_'.length).toLowerCase().replaceAll('_', '-')
  const dir = join(docs, 'errors')
  const pages = readdirSync(dir)
    .filter((name) => name.endsWith('.md') && name !== 'index.md')
    .map((name) => name.slice(0, -'.md'.length))
  const index = readFileSync(join(dir, 'index.md'), 'utf8')
  for (const code of codes) {
    if (!pages.includes(pageOf(code)))
      problems.push(`${where}: the error code ${code} has no page docs/errors/${pageOf(code)}.md`)
    else if (!index.includes(`](./${pageOf(code)})`))
      problems.push(`docs/errors/index.md: no row links the page of ${code} (./${pageOf(code)})`)
  }
  for (const page of pages) {
    if (!codes.some((code) => pageOf(code) === page))
      problems.push(`docs/errors/${page}.md: no error code in ${where} has this page`)
  }
  const site = /export const DOCS_SITE = '([^']+)'/.exec(source.text)?.[1]
  const config = readdirSync(join(docs, '.vitepress')).find((name) =>
    /^config\.[mc]?[jt]s$/.test(name),
  )
  const base =
    config &&
    /\bbase:\s*'([^']+)'/.exec(readFileSync(join(docs, '.vitepress', config), 'utf8'))?.[1]
  if (!site) problems.push(`${where}: no "export const DOCS_SITE = '...'" beside the codes`)
  else if (!base) problems.push('docs/.vitepress: no config with a "base" found')
  else if (new URL(site).pathname !== base)
    problems.push(`${where}: DOCS_SITE "${site}" is not served under the site's base "${base}"`)
  return problems
}

/** Type-checks each `ts` block of docs/guide/ as a module of its own, against the sources. */
function typeCheckGuide() {
  const out = join(root, 'node_modules/.cache/rubricate-docs')
  rmSync(out, { recursive: true, force: true })
  mkdirSync(out, { recursive: true })
  const names = new Map()
  for (const file of markdownFiles(join(docs, 'guide'))) {
    for (const block of parse(file).blocks) {
      if (block.lang !== 'ts' || block.check === 'skip') continue
      const name = `${relative(docs, file).replace(/[/.]/g, '_')}_${block.line}.ts`
      const prelude = block.check ? `${block.check}\n` : ''
      writeFileSync(join(out, name), `${prelude}${block.code.join('\n')}\nexport {}\n`)
      names.set(name, `${relative(root, file)}:${block.line}`)
    }
  }
  const entry = (path) => [relative(out, join(root, path))]
  const tsconfig = {
    compilerOptions: {
      target: 'ES2022',
      lib: ['ES2023', 'DOM'],
      module: 'ESNext',
      moduleResolution: 'Bundler',
      types: ['node'],
      strict: true,
      skipLibCheck: true,
      noEmit: true,
      allowImportingTsExtensions: true,
      baseUrl: '.',
      typeRoots: [relative(out, join(root, 'node_modules/@types'))],
      paths: {
        rubricate: entry('src/index.ts'),
        'rubricate/plugin': entry('reporters/plugin.ts'),
        'rubricate/reporter': entry('reporters/index.ts'),
        'rubricate/testing': entry('src/testing/index.ts'),
        'rubricate/cassettes': entry('src/cassettes/index.ts'),
        'rubricate/setup': entry('matchers/setup.ts'),
        'rubricate/matchers': entry('matchers/index.ts'),
        'rubricate/evals': entry('evals/index.ts'),
        '*': [relative(out, join(root, 'node_modules/*'))],
      },
    },
    // The matchers' types, as a user's `/// <reference types="rubricate/matchers" />` gives them.
    files: [...names.keys(), entry('matchers/index.ts')[0]],
  }
  writeFileSync(join(out, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2))
  try {
    execFileSync(join(root, 'node_modules/.bin/tsc'), ['-p', out, '--pretty', 'false'], {
      encoding: 'utf8',
    })
    return []
  } catch (error) {
    const text = `${error.stdout ?? ''}${error.stderr ?? ''}`
    const problems = []
    for (const line of text.split('\n')) {
      const at = /^([^(]+)\((\d+),(\d+)\): (.*)$/.exec(line)
      if (!at) continue
      const block = names.get(at[1].split('/').at(-1))
      // Errors inside the package's own sources are the library's type check's business.
      if (block) problems.push(`${block} (line ${at[2]} of the block): ${at[4]}`)
    }
    return problems.length > 0 ? problems : [`tsc failed:\n${text}`]
  }
}
