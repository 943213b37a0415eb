/**
 * The command that records a test's calls again, for a miss and for an error a replayed reply
 * caused: `RUBRICATE_CASSETTES=auto npx vitest run <file> -t "<name>"`, with what the recording
 * needs set (a base URL, a key).
 */

import { basename, dirname } from 'node:path'
import { displayPath, projectRoot, testLabel } from '../../config/paths'
import type { ResolvedConfig } from '../../config/resolve-config'
import type { TestIdentity } from '../../records/records'
import { currentRuntime, type Runtime } from '../../runtime/runtime'
import { runtimeState } from '../../runtime/state'
import { storeFor } from '../store/cassette-store'

// The OpenAI-shaped endpoints, whose clients read OPENAI_BASE_URL and OPENAI_API_KEY.
const OPENAI_SHAPED = new Set(['chat/completions', 'completions', 'responses', 'embeddings'])

const OPENAI_BASE = 'https://api.openai.com/v1'

/**
 * What the record command must set for the recording to reach the model: the base URL the
 * nearest entry was recorded at, when this request would go elsewhere, and a key when the
 * request has none. Only for OpenAI-shaped endpoints, whose clients read these variables.
 * @internal
 */
export function recordEnv(
  input: { endpoint: string; baseURL?: string | undefined; keyless?: boolean | undefined },
  recordedAt: string | undefined,
): string {
  if (!OPENAI_SHAPED.has(input.endpoint)) return ''
  const env: string[] = []
  if (recordedAt !== undefined && recordedAt !== input.baseURL && recordedAt !== OPENAI_BASE) {
    env.push(`OPENAI_BASE_URL=${shellQuote(recordedAt)}`)
  }
  if (input.keyless) env.push('OPENAI_API_KEY=<your key>')
  return env.map((part) => `${part} `).join('')
}

/**
 * `RUBRICATE_CASSETTES=auto npx vitest run <file> -t "<name>"`. The name becomes a regular
 * expression (Vitest's `-t`) matched against the full name, whose parts Vitest joins with spaces,
 * written inside double quotes for a POSIX shell.
 * @internal
 */
export function recordCommand(test: TestIdentity, withName: boolean): string {
  const file = shellQuote(displayPath(test.file))
  const run = `RUBRICATE_CASSETTES=auto npx vitest run${configOption()} ${file}`
  if (!withName) return run
  const pattern = test.name
    .split(' > ')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join(' ')
  return `${run} -t "${pattern.replace(/[\\"$`]/g, '\\$&')}"`
}

/**
 * ` --config <file>` when the run used a config file that Vitest would not find by itself from
 * the project root (a `vitest.failing.config.ts`, one in another folder), else nothing.
 */
function configOption(): string {
  const file = runtimeState().run.configFile
  if (!file) return ''
  const found = /^(vitest|vite)\.config\.[cm]?[jt]s$/.test(basename(file))
  if (found && dirname(file) === projectRoot()) return ''
  return ` --config ${shellQuote(displayPath(file))}`
}

/**
 * Where the judge reply of `key` was replayed from, and the command that records it again: for
 * an error that a replayed reply caused, which would otherwise repeat on every replay.
 * @internal
 */
export function replayedFrom(
  key: string,
  call: { test: TestIdentity | undefined; config: ResolvedConfig },
  runtime: Runtime = currentRuntime(),
): { file: string; command: string } {
  const { dir } = call.config.cassettes
  const file = displayPath(
    storeFor(runtime.stores, dir).file(key, call.test && testLabel(call.test)),
  )
  const command = call.test
    ? recordCommand(call.test, true).replace(
        'RUBRICATE_CASSETTES=auto',
        'RUBRICATE_CASSETTES=record',
      )
    : 'RUBRICATE_CASSETTES=record npx vitest run'
  return { file, command }
}

function shellQuote(path: string): string {
  return /^[\w./@+:-]+$/.test(path) ? path : `"${path.replace(/[\\"$`]/g, '\\$&')}"`
}
