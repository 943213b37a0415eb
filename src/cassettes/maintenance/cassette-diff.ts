/**
 * `rubricate cassettes diff <old> <new>` (issue 18): what two cassette folders' judges decided,
 * compared per test and criterion: the verdicts that flipped, appeared or disappeared, and the
 * score changes of scorers. A judge upgrade becomes a reviewed step: re-record into a scratch
 * folder with the new judge model, diff, decide.
 *
 * Only two small functions know the entry format: {@link entryTest} (which test an entry belongs
 * to) and {@link entryJudgements} (the verdicts and scores a judge entry holds). Everything else
 * works on their results.
 */

import { execFileSync, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, relative, sep } from 'node:path'
import { UsageError } from '../../errors'
import { messages } from '../../messages'
import { canonicalJson } from '../store/canonical-json'
import type { CassetteEntry } from '../store/cassette-entry'
import { CassetteStore } from '../store/cassette-store'
import { requestModel } from '../store/model-endpoint'

/** One decision a judge entry holds: a criterion's verdict, or a scorer step's score. @internal */
export type Judgement =
  | {
      kind: 'verdict'
      criterion: string
      required: boolean
      satisfied: boolean
      reasoning: string
      /** What the judge was shown, without the model: tells two assertions of one test apart. */
      prompt: string
      model: string | undefined
      recordedAt: string
    }
  | {
      kind: 'score'
      label: string
      score: number
      prompt: string
      model: string | undefined
      recordedAt: string
    }

/** One change between the two folders, within one test. @internal */
export type JudgementChange =
  | {
      change: 'flipped' | 'appeared' | 'disappeared'
      kind: 'verdict'
      criterion: string
      required: boolean
      /** The verdict in the old folder (`undefined` when it appeared). */
      before: boolean | undefined
      /** The verdict in the new folder (`undefined` when it disappeared). */
      after: boolean | undefined
      /** The new reasoning of a flipped or appeared verdict, the old one of a disappeared one. */
      reasoning: string
      models: [string | undefined, string | undefined]
    }
  | {
      change: 'changed' | 'appeared' | 'disappeared'
      kind: 'score'
      label: string
      before: number | undefined
      after: number | undefined
      models: [string | undefined, string | undefined]
    }

/** The changes of one test. @internal */
export interface TestDiff {
  /** `<test file> > <test name>`, as entries record it. */
  test: string
  changes: JudgementChange[]
}

/** What {@link diffCassetteFolders} found. @internal */
export interface CassetteDiff {
  /** Tests with at least one change, by name. */
  tests: TestDiff[]
  /** Verdicts of required criteria that flipped: the command exits 1 when there is any. */
  requiredFlips: number
  /** Verdicts and scores compared in each folder. */
  judgements: { before: number; after: number }
  /** Entry files that did not parse, per side; they are left out of the comparison. */
  unreadable: { before: number; after: number }
}

/** The test an entry was recorded by, the group it is compared in. @internal */
export function entryTest(entry: CassetteEntry): string {
  return entry.recordedBy ?? '(no test recorded)'
}

/**
 * The verdicts and the score a judge entry holds: a rubric prompt's criteria (read from the
 * prompt's `c1. [required] ...` lines) with the verdicts of the reply, or a scorer step's reply
 * `{ "score": n }` (a `generateScore` prompt step, whose entries carry no prompt version). Agent
 * entries, failed replies and other step results hold none.
 * @internal
 */
export function entryJudgements(entry: CassetteEntry): Judgement[] {
  const reply = parseReply(replyText(entry))
  if (reply === undefined) return []
  const body = entry.request.body as Record<string, unknown> | null
  const model = requestModel(body)
  const promptText = requestPrompt(body)
  const prompt = promptIdentity(body)
  const out: Judgement[] = []
  const verdicts = (reply as { criteria?: unknown }).criteria
  if (verdicts && typeof verdicts === 'object') {
    for (const match of promptText.matchAll(/^(c\d+)\. \[(required|optional)\] (.*)$/gm)) {
      const verdict = (verdicts as Record<string, { satisfied?: unknown; reasoning?: unknown }>)[
        match[1] as string
      ]
      if (typeof verdict?.satisfied !== 'boolean') continue
      out.push({
        kind: 'verdict',
        criterion: match[3] as string,
        required: match[2] === 'required',
        satisfied: verdict.satisfied,
        reasoning: typeof verdict.reasoning === 'string' ? verdict.reasoning : '',
        prompt,
        model,
        recordedAt: entry.recordedAt,
      })
    }
    return out
  }
  const score = (reply as { score?: unknown }).score
  if (typeof score === 'number' && Object.keys(reply).length === 1) {
    const first = promptText.split('\n').find((line) => line.trim() !== '') ?? ''
    const label = first.length > 70 ? `${first.slice(0, 69).trimEnd()}…` : first
    out.push({
      kind: 'score',
      label: label || 'score',
      score,
      prompt,
      model,
      recordedAt: entry.recordedAt,
    })
  }
  return out
}

/** Every judgement of a folder, grouped by test. @internal */
export async function readJudgements(
  dir: string,
): Promise<{ byTest: Map<string, Judgement[]>; count: number; unreadable: number }> {
  const store = new CassetteStore(dir)
  const { entries } = await store.list()
  const byTest = new Map<string, Judgement[]>()
  let count = 0
  let unreadable = 0
  // Read synchronously, as `stats` does: a command has nothing else to do meanwhile.
  for (const { file } of entries) {
    // Through the store, so a format-2 entry is decoded (lines, the shared schema) as replay reads it.
    const entry = store.readEntryFile(file)
    if (typeof entry === 'string') {
      unreadable++
      continue
    }
    const found = entryJudgements(entry)
    if (found.length === 0) continue
    const test = entryTest(entry)
    byTest.set(test, [...(byTest.get(test) ?? []), ...found])
    count += found.length
  }
  return { byTest, count, unreadable }
}

/** Compare what the judges of two folders decided. @internal */
export async function diffCassetteFolders(before: string, after: string): Promise<CassetteDiff> {
  const [old, next] = await Promise.all([readJudgements(before), readJudgements(after)])
  const tests: TestDiff[] = []
  let requiredFlips = 0
  const names = [...new Set([...old.byTest.keys(), ...next.byTest.keys()])].sort()
  for (const test of names) {
    const changes = diffTest(old.byTest.get(test) ?? [], next.byTest.get(test) ?? [])
    requiredFlips += changes.filter(
      (c) => c.kind === 'verdict' && c.change === 'flipped' && c.required,
    ).length
    // Verdicts first, then scores: the order a reviewer decides in.
    changes.sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'verdict' ? -1 : 1))
    if (changes.length > 0) tests.push({ test, changes })
  }
  return {
    tests,
    requiredFlips,
    judgements: { before: old.count, after: next.count },
    unreadable: { before: old.unreadable, after: next.unreadable },
  }
}

/**
 * The changes within one test. A judgement is matched by what it judges (the criterion, or the
 * scorer prompt's first line) and its rank among the same ones of the test ordered by prompt, so
 * a new judge model, whose requests differ only in `model`, is matched to the old one.
 */
function diffTest(before: Judgement[], after: Judgement[]): JudgementChange[] {
  const old = byIdentity(before)
  const next = byIdentity(after)
  const changes: JudgementChange[] = []
  for (const id of [...new Set([...old.keys(), ...next.keys()])]) {
    const a = old.get(id)
    const b = next.get(id)
    const models: [string | undefined, string | undefined] = [a?.model, b?.model]
    const shown = (b ?? a) as Judgement
    if (shown.kind === 'verdict') {
      const x = a as Extract<Judgement, { kind: 'verdict' }> | undefined
      const y = b as Extract<Judgement, { kind: 'verdict' }> | undefined
      if (x && y && x.satisfied === y.satisfied) continue
      changes.push({
        change: x && y ? 'flipped' : x ? 'disappeared' : 'appeared',
        kind: 'verdict',
        criterion: shown.criterion,
        required: shown.required,
        before: x?.satisfied,
        after: y?.satisfied,
        reasoning: shown.reasoning,
        models,
      })
    } else {
      const x = a as Extract<Judgement, { kind: 'score' }> | undefined
      const y = b as Extract<Judgement, { kind: 'score' }> | undefined
      if (x && y && x.score === y.score) continue
      changes.push({
        change: x && y ? 'changed' : x ? 'disappeared' : 'appeared',
        kind: 'score',
        label: shown.label,
        before: x?.score,
        after: y?.score,
        models,
      })
    }
  }
  return changes
}

/**
 * The judgements of a test by identity. When one request (the model aside) was recorded for
 * several judge models, as in a scratch copy of the folder re-run with a new judge, only the
 * latest-recorded model's judgements count.
 */
function byIdentity(judgements: Judgement[]): Map<string, Judgement> {
  const what = (j: Judgement) => (j.kind === 'verdict' ? `v\0${j.criterion}` : `s\0${j.label}`)
  const latest = new Map<string, Judgement>()
  for (const judgement of judgements) {
    const group = `${what(judgement)}\0${judgement.prompt}`
    const seen = latest.get(group)
    if (!seen || judgement.recordedAt > seen.recordedAt) latest.set(group, judgement)
  }
  const current = judgements.filter((j) => latest.get(`${what(j)}\0${j.prompt}`)?.model === j.model)
  const sorted = [...current].sort((a, b) =>
    a.prompt < b.prompt ? -1 : a.prompt > b.prompt ? 1 : 0,
  )
  const seen = new Map<string, number>()
  const out = new Map<string, Judgement>()
  for (const judgement of sorted) {
    const what =
      judgement.kind === 'verdict' ? `v\0${judgement.criterion}` : `s\0${judgement.label}`
    const rank = seen.get(what) ?? 0
    seen.set(what, rank + 1)
    out.set(`${what}\0${rank}`, judgement)
  }
  return out
}

/** The reply text of a judge entry: a chat completion's message, or a custom model's `text`. */
function replyText(entry: CassetteEntry): string | undefined {
  const { response } = entry
  if (response.status < 200 || response.status >= 300) return undefined
  const json = response.json as
    | { choices?: { message?: { content?: unknown } }[]; text?: unknown }
    | undefined
  const content = json?.choices?.[0]?.message?.content ?? json?.text
  return typeof content === 'string' ? content : undefined
}

function parseReply(text: string | undefined): object | undefined {
  if (text === undefined) return undefined
  const start = text.indexOf('{')
  const end = text.lastIndexOf('}')
  if (start < 0 || end < start) return undefined
  try {
    const value = JSON.parse(text.slice(start, end + 1))
    return value && typeof value === 'object' ? value : undefined
  } catch {
    return undefined
  }
}

/** The user's part of a judge request: the chat messages' text, or a custom model's `prompt`. */
function requestPrompt(body: Record<string, unknown> | null): string {
  if (!body) return ''
  if (typeof body.prompt === 'string') return body.prompt
  const messages = Array.isArray(body.messages) ? body.messages : []
  return messages
    .filter((m) => m?.role === 'user')
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
    .join('\n')
}

function promptIdentity(body: Record<string, unknown> | null): string {
  if (!body || typeof body !== 'object') return ''
  const { model: _model, ...rest } = body
  return createHash('sha256').update(canonicalJson(rest)).digest('hex')
}

/**
 * The cassette folder `dir` as committed at `ref`, copied into a scratch folder (removed by
 * `cleanup`). A usage error when `cwd` is not in a git repository or `ref` is unknown.
 * @internal
 */
export async function committedFolder(
  cwd: string,
  dir: string,
  ref: string,
): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  let top: string
  try {
    top = execFileSync('git', ['rev-parse', '--show-toplevel'], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }).trim()
  } catch {
    throw new UsageError(messages.cliDiffNoGit(ref))
  }
  const inRepo = relative(top, dir).split(sep).join('/')
  if (inRepo.startsWith('..')) throw new UsageError(messages.cliDiffOutsideRepo(dir, top))
  // NUL-terminated, with each file's object id: a file name may hold a newline (or anything but
  // NUL), and git is then asked for objects by id alone, never by a name it would split.
  const listed = spawnSync('git', ['ls-tree', '-r', '-z', '--full-name', ref, '--', inRepo], {
    cwd: top,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  })
  if (listed.status !== 0) throw new UsageError(messages.cliDiffBadRef(ref, listed.stderr.trim()))
  const files = treeBlobs(listed.stdout).filter(({ path }) => path.endsWith('.json'))
  const scratch = await mkdtemp(join(tmpdir(), 'rubricate-diff-'))
  const cleanup = () => rm(scratch, { recursive: true, force: true })
  try {
    if (files.length > 0) {
      // One git process for every file: `cat-file --batch` answers "<oid> blob <size>\n<bytes>\n".
      const output = execFileSync('git', ['cat-file', '--batch'], {
        cwd: top,
        input: files.map(({ oid }) => `${oid}\n`).join(''),
        maxBuffer: 1 << 30,
      })
      let at = 0
      for (const { oid, path } of files) {
        const eol = output.indexOf(10, at)
        const header = eol < 0 ? '' : output.subarray(at, eol).toString('utf8')
        const [gotOid, type, sizeText] = header.split(' ')
        const size = Number(sizeText)
        // Every answer is checked against the object asked for: a misread answer would shift
        // every later file, and a folder read wrong hides the flips it holds.
        if (gotOid !== oid || type !== 'blob' || !Number.isSafeInteger(size) || size < 0) {
          throw new Error(
            `This is a bug in rubricate: "git cat-file --batch" answered "${header}" for "${path}" (${oid}).`,
          )
        }
        const text = output.subarray(eol + 1, eol + 1 + size)
        at = eol + 1 + size + 1
        const target = join(scratch, inRepo ? path.slice(inRepo.length + 1) : path)
        await mkdir(dirname(target), { recursive: true })
        await writeFile(target, text)
      }
    }
  } catch (error) {
    await cleanup()
    throw error
  }
  return { dir: scratch, cleanup }
}

/**
 * The files of `git ls-tree -r -z` output (`<mode> <type> <oid>\t<path>\0` each): their object ids
 * and paths, submodules left out.
 * @internal
 */
export function treeBlobs(output: string): { oid: string; path: string }[] {
  const out: { oid: string; path: string }[] = []
  for (const record of output.split('\0')) {
    const tab = record.indexOf('\t')
    if (tab < 0) continue
    const [, type, oid] = record.slice(0, tab).split(' ')
    if (type === 'blob' && oid) out.push({ oid, path: record.slice(tab + 1) })
  }
  return out
}
