// Figure 4 of ARCHITECTURE.md §10: a cassette folder of 10,000 entries. Its entries are made from a real
// recorded judge entry (same size and shape), each with its own output and a key that `verify`
// recomputes. Measured: the first replay of a fresh Vitest run with the big folder against the same
// run with a folder of one entry, and `rubricate cassettes stats` and `verify` over the big folder.
import { existsSync } from 'node:fs'
import { copyFile, cp, mkdir, writeFile } from 'node:fs/promises'
import { dirname, join, relative } from 'node:path'
import { computeKey } from '../src/cassettes/exchange/prepared-request'
import { type CassetteEntry, serializeEntry } from '../src/cassettes/store/cassette-entry'
import { CassetteStore } from '../src/cassettes/store/cassette-store'
import { median, quantile, round, runChild } from './measure'
import { onlyModule } from './replay-figures'
import { replayEnv, runProject } from './replay-project'

/** Figures of the store benchmark, in milliseconds. */
export interface StoreFigures {
  entries: number
  /** Size of the big folder on disk (entry bytes). */
  bytes: number
  /** Median duration of the one replayed test of a fresh run, with one entry and with all. */
  firstReplayOneMs: number
  firstReplayManyMs: number
  /** `firstReplayManyMs - firstReplayOneMs`: what the entries cost at start-up. */
  startupCostMs: number
  /** Interquartile range of the first replays with one entry: how much they vary by themselves. */
  firstReplaySpreadMs: number
  /** Per run, in run order: first replay with one entry, and with all. */
  perRun: { one: number[]; many: number[] }
  /** Median wall time of the whole `vitest run` (the reporter counts unused entries at its end). */
  runOneMs: number
  runManyMs: number
  /** Median wall time of `rubricate cassettes stats` and `verify` over the big folder. */
  statsMs: number
  verifyMs: number
  runs: number
}

/**
 * Fill `dir` with `count` entries shaped like `template` (a recorded judge entry), one per output.
 * Returns the bytes written.
 */
export async function writeEntries(
  dir: string,
  template: CassetteEntry,
  count: number,
): Promise<number> {
  const body = template.request.body as { messages: { role: string; content: string }[] }
  const user = body.messages.findIndex((message) => message.role === 'user')
  const prompt = body.messages[user]?.content ?? ''
  const fence = /```\n([^\n]*)\n```/
  if (!fence.test(prompt)) throw new Error('The template entry holds no fenced output.')
  let bytes = 0
  const store = new CassetteStore(dir)
  let schemaWritten = false
  const started = Date.parse('2026-01-01T00:00:00Z')
  const write = async (i: number) => {
    const messages = body.messages.map((message, index) =>
      index === user
        ? {
            ...message,
            content: prompt.replace(fence, `\`\`\`\nstored output number ${i}\n\`\`\``),
          }
        : message,
    )
    const requestBody = { ...body, messages }
    const key = computeKey(template.request.endpoint, requestBody)
    const recordedBy = `store.test.ts > stored ${i}`
    const { text, schema } = serializeEntry({
      ...template,
      key,
      recordedAt: new Date(started + i * 60_000).toISOString(),
      recordedBy,
      request: { ...template.request, body: requestBody },
    })
    bytes += Buffer.byteLength(text)
    const file = store.placeFor(key, recordedBy, template.request.endpoint)
    await mkdir(dirname(file), { recursive: true })
    if (schema && !schemaWritten) {
      schemaWritten = true
      await mkdir(dirname(store.schemaFile(schema.hash)), { recursive: true })
      await writeFile(store.schemaFile(schema.hash), JSON.stringify(schema.schema, null, 2))
    }
    await writeFile(file, text)
  }
  // A few hundred files at a time: fast, without running out of file handles.
  for (let i = 0; i < count; i += 256) {
    await Promise.all(Array.from({ length: Math.min(256, count - i) }, (_, j) => write(i + j)))
  }
  return bytes
}

/**
 * Run the store benchmark in the replay project at `root` (recorded): `entries` entries, `runs`
 * runs of each kind.
 */
export async function measureStore(
  root: string,
  entries: number,
  runs: number,
): Promise<StoreFigures> {
  const recorded = new CassetteStore(join(root, '__cassettes__'))
  const needed = (await recorded.list()).entries.filter((item) => {
    const entry = recorded.read(item.key)
    return entry?.recordedBy === 'startup.test.ts > rubric 0'
  })
  const [startup] = needed
  if (!startup || needed.length !== 1) {
    throw new Error('The recorded project has no single entry for startup.test.ts.')
  }
  const template = recorded.readEntryFile(startup.file)
  if (typeof template === 'string') throw new Error(`The startup entry is unusable: ${template}`)
  const one = join(root, 'store-one')
  const many = join(root, 'store-many')
  const relativeFile = relative(recorded.dir, startup.file)
  for (const dir of [one, many]) {
    // The entry at the same place, its shared schemas beside it: the test finds it in its folder.
    const schemas = join(recorded.dir, '_shared', 'schemas')
    if (existsSync(schemas)) await cp(schemas, join(dir, '_shared', 'schemas'), { recursive: true })
    await mkdir(dirname(join(dir, relativeFile)), { recursive: true })
    await copyFile(startup.file, join(dir, relativeFile))
  }
  const bytes = await writeEntries(many, template, entries - 1)

  const first: Record<'one' | 'many', number[]> = { one: [], many: [] }
  const wall: Record<'one' | 'many', number[]> = { one: [], many: [] }
  for (let run = 0; run < runs; run++) {
    // Alternated, so that a change in the machine's load weighs on both.
    for (const kind of run % 2 === 0 ? (['one', 'many'] as const) : (['many', 'one'] as const)) {
      const { report, wallMs } = await runProject(
        root,
        ['startup.test.ts'],
        replayEnv({ BENCH_CASSETTES: kind === 'one' ? 'store-one' : 'store-many' }),
      )
      onlyModule(report)
      first[kind].push(report.tests[0]?.durationMs ?? Number.NaN)
      wall[kind].push(wallMs)
    }
  }

  const cli = join(root, 'node_modules/rubricate/dist/cli.js')
  const stats: number[] = []
  const verify: number[] = []
  for (let run = 0; run < runs; run++) {
    for (const [command, times] of [
      ['stats', stats],
      ['verify', verify],
    ] as const) {
      const child = await runChild(
        process.execPath,
        [cli, 'cassettes', command, '--dir', 'store-many'],
        { cwd: root, env: { PATH: process.env.PATH ?? '' } },
      )
      if (child.exitCode !== 0 || !child.stdout.includes(entries.toLocaleString('en-US'))) {
        throw new Error(
          `rubricate cassettes ${command} failed (exit code ${child.exitCode}):\n${child.stdout}\n${child.stderr}`,
        )
      }
      times.push(child.wallMs)
    }
  }
  const firstReplayOneMs = median(first.one)
  const firstReplayManyMs = median(first.many)
  return {
    entries,
    bytes,
    firstReplayOneMs: round(firstReplayOneMs, 2),
    firstReplayManyMs: round(firstReplayManyMs, 2),
    startupCostMs: round(firstReplayManyMs - firstReplayOneMs, 2),
    firstReplaySpreadMs: round(quantile(first.one, 0.75) - quantile(first.one, 0.25), 2),
    perRun: {
      one: first.one.map((ms) => round(ms, 1)),
      many: first.many.map((ms) => round(ms, 1)),
    },
    runOneMs: round(median(wall.one), 1),
    runManyMs: round(median(wall.many), 1),
    statsMs: round(median(stats), 1),
    verifyMs: round(median(verify), 1),
    runs,
  }
}
