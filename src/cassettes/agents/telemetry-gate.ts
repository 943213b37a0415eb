import { isIP } from 'node:net'
import { NetworkBlockedError } from '../../errors'
import { messages } from '../../messages'
import type { Runtime } from '../../runtime/runtime'
import { isHostIn, isTelemetry } from '../store/model-endpoint'
import { refuseConnection } from './network-refusal'

/**
 * Tracing and telemetry exports (LangSmith, the Agents SDK's trace ingest, OpenTelemetry OTLP) are
 * never model calls (`isTelemetry`): in replay mode they are refused before they leave, and the
 * refusal fails the test; outside replay mode they go out, or are refused quietly with
 * `cassettes.telemetry: 'refuse'`. A collector on loopback, and a host `cassettes.allowHosts`
 * names, always get them. A refusal is answered with an HTTP 400 that says not to retry, as a
 * cassette miss is: an exporter would retry a failed connection with backoff until its test timed
 * out.
 */

/** The reply to a refused telemetry request. @internal */
export function telemetryRefusalReply(refusal: NetworkBlockedError): Response {
  return Response.json(
    {
      error: { message: refusal.message, type: 'rubricate_error', code: refusal.code, param: null },
    },
    { status: 400, headers: { 'x-should-retry': 'false' } },
  )
}

/**
 * The refusal of a telemetry request under `runtime`'s configuration, or `undefined` when it is no
 * telemetry or may go.
 * @internal
 */
export function refusedTelemetry(
  url: URL,
  method: string,
  runtime: Runtime,
): NetworkBlockedError | undefined {
  if (!isTelemetry(url, method) || isLoopback(url.hostname)) return undefined
  let cassettes: ReturnType<Runtime['config']>['cassettes']
  try {
    cassettes = runtime.config().cassettes
  } catch {
    // An invalid configuration is reported where it is used: by the model calls' cassettes.
    return undefined
  }
  if (isHostIn(url.hostname, cassettes.allowHosts)) return undefined
  const target = `${url.host}${url.pathname}`
  if (cassettes.mode === 'replay') {
    return refuseConnection({ kind: 'telemetry', host: url.hostname, target })
  }
  if (cassettes.telemetry === 'refuse') {
    return new NetworkBlockedError(messages.telemetryRefusedByOption(target))
  }
  return undefined
}

/** Whether a URL's `hostname` is this machine: a collector there sends nothing out. */
function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase()
  if (host === 'localhost') return true
  if (isIP(host) === 0) return false
  return /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/.test(host)
}
