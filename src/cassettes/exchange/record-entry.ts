/**
 * Writing an exchange to the store: the entry is built from the prepared request and the reply,
 * redacted of the secrets known now, passed through the user's `redact` hook, rescanned, and
 * written, unless it is an HTTP error that would replace a successful recording.
 */

import { testLabel } from '../../config/paths'
import { SecretInCassetteError } from '../../errors'
import { messages } from '../../messages'
import {
  findSecret,
  redactJson,
  redactText,
  type Secret,
  type SecretSet,
  secretSet,
} from '../redaction/redaction'
import { findSecretInStream } from '../redaction/stream-secrets'
import { type CassetteEntry, type CassetteResponse, ENTRY_FORMAT } from '../store/cassette-entry'
import type { CassetteStore } from '../store/cassette-store'
import { type ExchangeInput, type PreparedRequest, runHook } from './prepared-request'
import { isSuccess } from './replay'

// Where the request went, stored with its entry: a secret a URL holds in its path (a proxy's
// token segment) is redacted like any other.
function redactedBase(base: string | undefined, secrets: SecretSet): string | undefined {
  return base === undefined ? undefined : redactText(base, secrets)
}

/** True when the store holds a successful reply for `key` (an unreadable file holds none). */
function holdsSuccess(store: CassetteStore, key: string, recordedBy?: string): boolean {
  try {
    const entry = store.readOwn(key, recordedBy)
    return entry !== undefined && isSuccess(entry.response.status)
  } catch {
    return false
  }
}

function redactedEntry(
  input: ExchangeInput,
  request: PreparedRequest,
  response: CassetteResponse,
  secrets: SecretSet,
): CassetteEntry {
  return {
    v: ENTRY_FORMAT,
    key: request.key,
    promptVersion: input.promptVersion,
    recordedAt: new Date().toISOString(),
    recordedBy: input.test ? testLabel(input.test) : undefined,
    baseURL: redactedBase(request.baseURL, secrets),
    request: {
      method: request.method,
      endpoint: request.endpoint,
      body: request.body,
      ...(request.query === undefined ? {} : { query: request.query }),
      ...(request.trial === undefined ? {} : { trial: request.trial }),
      ...(request.occurrence === undefined ? {} : { occurrence: request.occurrence }),
      ...(request.hook === undefined ? {} : { hook: request.hook }),
    },
    response: {
      ...response,
      json: response.json === undefined ? undefined : redactJson(response.json, secrets),
      text: response.text === undefined ? undefined : redactText(response.text, secrets),
      sse: response.sse?.map((chunk) => ({ t: chunk.t, chunk: redactText(chunk.chunk, secrets) })),
    },
  }
}

// The rescan after the user's hook: an entry that still holds a known secret is never written.
function refuseSecrets(entry: CassetteEntry, secrets: SecretSet): void {
  const where = `${entry.key} (${entry.request.endpoint})`
  const leak = findSecret(entry, secrets)
  if (leak) throw new SecretInCassetteError(messages.secretInCassette(where, leak.label, leak.path))
  const spelled = entry.response.sse && findSecretInStream(entry.response.sse, secrets)
  if (spelled) {
    throw new SecretInCassetteError(messages.secretInStream(where, spelled.label, spelled.path))
  }
}

/** The response headers worth storing: only `content-type`. @internal */
export function storedHeaders(headers: Headers): Record<string, string> {
  const type = headers.get('content-type')
  return type ? { 'content-type': type } : {}
}

/** What {@link record} wrote. @internal */
export interface Recorded {
  key: string
  /** The entry's file, relative to the cassette folder, as an exchange event names it. */
  file: string
  /** The stored entry the store kept instead (the same exchange, ids aside). */
  kept: CassetteEntry | undefined
}

/**
 * Redact, hook, rescan, write; the key written, or `undefined` when nothing was: a failed exchange
 * (an HTTP error) is never written over a successful recording of the same request.
 * @internal
 */
export async function record(
  input: ExchangeInput,
  request: PreparedRequest,
  store: CassetteStore,
  live: Response,
  reply: Omit<CassetteResponse, 'status' | 'headers'>,
  options: { sameIds?: boolean } = {},
): Promise<Recorded | undefined> {
  const response = { status: live.status, headers: storedHeaders(live.headers), ...reply }
  // Redacted of the secrets known now, the environment read again before anything is written.
  const secrets = secretSet(input.runtime.secrets.refresh(), request.secrets.secrets as Secret[])
  let entry = redactedEntry(input, request, response, secrets)
  const hook = input.config.cassettes.redact
  if (hook) {
    // The request went through the hook before keying; only the reply is the hook's to change now.
    const keyed = entry.request
    entry = runHook(hook, structuredClone(entry))
    entry.request = keyed
  }
  refuseSecrets(entry, secrets)
  if (!isSuccess(entry.response.status) && holdsSuccess(store, entry.key, entry.recordedBy)) {
    console.warn(
      messages.failedExchangeNotRecorded(
        store.shownFile(entry.key, entry.recordedBy),
        entry.request.endpoint,
        entry.response.status,
      ),
    )
    return undefined
  }
  const written = await store.record(entry, options)
  input.runtime.session.markUsed(entry.key)
  return {
    key: entry.key,
    file: store.relativeFile(entry.key, entry.recordedBy),
    kept: written.kept,
  }
}
