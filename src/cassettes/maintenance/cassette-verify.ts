import { lstatSync, readFileSync } from 'node:fs'
import { requestKey } from '../exchange/prepared-request'
import { envSecrets, findSecret, secretSet } from '../redaction/redaction'
import { findSecretInStream } from '../redaction/stream-secrets'
import { CassetteStore, linkOutside } from '../store/cassette-store'
import { summaryProblem } from './entry-summaries'

/** One thing wrong with a cassette folder. @internal */
export interface VerifyProblem {
  /** Absolute path of the file. */
  file: string
  problem: string
}

/** What `rubricate cassettes verify` found (ARCHITECTURE.md §7.9). @internal */
export interface VerifyReport {
  dir: string
  entries: number
  problems: VerifyProblem[]
}

/**
 * Check a cassette folder: every file parses as an entry, every key matches the request it is
 * computed from (so replay finds it), every summary a reviewer reads (verdicts, streamed text,
 * `$lines`...) says what the reply holds, no entry holds a secret (the environment's, in any
 * encoding, and the well-known key formats), nothing is a symbolic link out of the folder (not
 * followed: replay would serve whatever it points to), and nothing else lies in the folder (temp
 * files of an interrupted write). The replies are not checked against anything: they are
 * reviewed data.
 * @internal
 */
export async function verifyCassettes(
  dir: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<VerifyReport> {
  const store = new CassetteStore(dir)
  // Every file is read below: the listing need not read them for their full keys first.
  const { entries, schemas, others } = await store.list({ fullKeys: false })
  const secrets = secretSet(envSecrets(env))
  const problems: VerifyProblem[] = []
  // Listed files are never inside a linked folder (the listing does not follow links), so only
  // the file itself may be one: one synchronous lstat a file, the links alone looked into.
  const leaving = new Set<string>()
  for (const file of [...entries.map((listed) => listed.file), ...schemas, ...others]) {
    if (!lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink()) continue
    const link = await linkOutside(file, dir)
    if (!link) continue
    leaving.add(file)
    problems.push({
      file,
      problem: `a symbolic link to "${link.target}", outside the cassette folder: verify does not follow it, and replay would serve whatever it points to; replace the link with the file itself`,
    })
  }
  for (const file of others) {
    if (leaving.has(file)) continue
    problems.push({
      file,
      problem: file.endsWith('.tmp')
        ? 'a temporary file left by an interrupted write; delete it'
        : 'not a cassette entry (entries are <test file>/<test name>.<key prefix>.json, or <k0k1>/<sha256 key>.json in format 1); move it out of the folder',
    })
  }
  // Read synchronously, as `stats` does: a command has nothing else to do meanwhile.
  for (const { key, file, format } of entries) {
    if (leaving.has(file)) continue
    const entry = store.readEntryFile(file)
    if (typeof entry === 'string') {
      problems.push({ file, problem: `${entry}` })
      continue
    }
    if (entry.key !== key && !(format === 2 && entry.key.startsWith(key))) {
      problems.push({
        file,
        problem: `its "key" is ${entry.key}, but the file is named for ${key}`,
      })
      continue
    }
    const computed = requestKey(entry.request)
    if (computed !== entry.key) {
      problems.push({
        file,
        problem: `its request keys to ${computed}, not ${entry.key}: the request was edited after recording, so replay will never find it; record it again`,
      })
    }
    if (format === 2) {
      // Parsed again as the file reads: the entry above is decoded, its summaries dropped.
      const summary = summaryProblem(fileJson(file), entry)
      if (summary) problems.push({ file, problem: summary })
    }
    const leak =
      findSecret(entry, secrets) ??
      (entry.response.sse && findSecretInStream(entry.response.sse, secrets))
    if (leak)
      problems.push({
        file,
        problem: `it holds ${leak.label} at "${leak.path}"; remove it and rotate the secret`,
      })
  }
  problems.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))
  return { dir, entries: entries.length, problems }
}

function fileJson(file: string): unknown {
  const text = readFileSync(file, 'utf8')
  return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text)
}
