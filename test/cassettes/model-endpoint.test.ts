// Which requests are model calls, and the endpoint part of their key (issue 29, items 3 and 4).

import { expect, test } from 'vitest'
import { computeKey, keyQuery } from '../../src/cassettes/exchange/prepared-request'
import {
  isProviderHost,
  matchingPattern,
  modelEndpoint,
  requestModel,
} from '../../src/cassettes/store/model-endpoint'

const endpointOf = (href: string, patterns: (string | RegExp)[] = [], hosts: string[] = []) =>
  modelEndpoint(new URL(href), patterns, hosts)

test('OpenAI-shaped endpoints keep their suffix and no query, so old keys do not change', () => {
  expect(
    endpointOf('https://x.example/openai/deployments/d/chat/completions?api-version=1'),
  ).toEqual({
    endpoint: 'chat/completions',
    queryInKey: false,
    by: 'built-in',
  })
  expect(endpointOf('http://127.0.0.1:1/api/chat')?.endpoint).toBe('api/chat')
})

test('native APIs are model calls on any host, keyed from where the provider API starts', () => {
  expect(endpointOf('http://127.0.0.1:1/v1/messages')).toEqual({
    endpoint: 'v1/messages',
    queryInKey: true,
    by: 'built-in',
  })
  expect(endpointOf('https://proxy.example/anthropic/v1/messages/count_tokens')?.endpoint).toBe(
    'v1/messages/count_tokens',
  )
  expect(
    endpointOf('https://g.example/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse')
      ?.endpoint,
  ).toBe('models/gemini-2.5-pro:streamGenerateContent')
  expect(
    endpointOf(
      'https://us-central1-aiplatform.googleapis.com/v1/projects/p/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent',
    )?.endpoint,
  ).toBe('models/gemini-2.5-flash:generateContent')
  expect(endpointOf('https://b.example/model/anthropic.claude-v2/converse')?.endpoint).toBe(
    'model/anthropic.claude-v2/converse',
  )
  expect(endpointOf('https://o.example/v1/conversations/conv_1/items')?.endpoint).toBe(
    'conversations/conv_1/items',
  )
  expect(endpointOf('https://o.example/v1/responses/resp_1')?.endpoint).toBe('responses/resp_1')
})

test("an app's own paths that merely look alike are not model calls", () => {
  expect(endpointOf('http://127.0.0.1:1/api/conversations')).toBeUndefined()
  expect(endpointOf('http://127.0.0.1:1/v1/models')).toBeUndefined()
  expect(endpointOf('http://127.0.0.1:1/v1/chat/completions2')).toBeUndefined()
})

test('every request to a known provider host is a model call keyed by its whole path', () => {
  expect(endpointOf('https://api.anthropic.com/v1/models?limit=5')).toEqual({
    endpoint: 'v1/models',
    queryInKey: true,
    by: 'host',
  })
  for (const host of [
    'api.openai.com',
    'my-resource.openai.azure.com',
    'generativelanguage.googleapis.com',
    'europe-west4-aiplatform.googleapis.com',
    'api.mistral.ai',
    'api.cohere.com',
    'api.groq.com',
    'api.together.xyz',
    'api.fireworks.ai',
    'openrouter.ai',
    'api.deepseek.com',
    'api.x.ai',
    'bedrock-runtime.us-east-1.amazonaws.com',
  ]) {
    expect(isProviderHost(host), host).toBe(true)
  }
  expect(isProviderHost('evil-openai.com')).toBe(false)
  expect(isProviderHost('s3.us-east-1.amazonaws.com')).toBe(false)
  expect(isProviderHost('llm.corp.example')).toBe(false)
  expect(isProviderHost('llm.corp.example', ['llm.corp.example'])).toBe(true)
  expect(isProviderHost('eu.gateway.example', ['*.gateway.example'])).toBe(true)
})

test('a string pattern matches the end of the path after a / or a :, a RegExp anywhere', () => {
  const path = '/v1beta/models/gemini-2.5-pro:generateContent'
  expect(matchingPattern(path, [':generateContent'])).toBe(':generateContent')
  expect(matchingPattern(path, ['generateContent'])).toBe('generateContent')
  expect(matchingPattern(path, ['Content'])).toBeUndefined()
  expect(matchingPattern('/api/v1/rerank', ['/v1/rerank'])).toBe('/v1/rerank')
  expect(matchingPattern('/api/xv1/rerank', ['/v1/rerank'])).toBeUndefined()
  expect(matchingPattern('/predict/x', [/predict/])).toEqual(/predict/)
})

test('a pattern that names a built-in endpoint is noted as matched, and the built-in key is kept', () => {
  // Reported as "matched no request" before, beside any call keyed by its provider host alone.
  const gemini =
    'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:generateContent'
  expect(endpointOf(gemini, [':generateContent'])).toEqual({
    endpoint: 'models/gemini-2.5-pro:generateContent',
    queryInKey: true,
    by: 'built-in',
    pattern: ':generateContent',
  })
  expect(endpointOf('http://127.0.0.1:1/v1/chat/completions', [/completions/])).toEqual({
    endpoint: 'chat/completions',
    queryInKey: false,
    by: 'built-in',
    pattern: /completions/,
  })
})

test('a pattern keys the host name, the whole path and the query without its secret-named parameters', () => {
  const url = new URL('http://127.0.0.1:1/tools/v2/rerank?top=3&key=AIzaSecret0123456789')
  expect(endpointOf(url.href, ['/v2/rerank'])).toEqual({
    endpoint: '127.0.0.1/tools/v2/rerank',
    queryInKey: true,
    by: 'pattern',
    pattern: '/v2/rerank',
  })
  expect(keyQuery('POST', url, true)).toEqual({ top: '3' })
  expect(keyQuery('POST', url)).toBeUndefined()
  expect(keyQuery('GET', url)).toEqual({ top: '3', key: 'AIzaSecret0123456789' })
})

test('the model in the path is two keys, and the entry names it', () => {
  const body = { contents: [{ parts: [{ text: 'hi' }] }] }
  const pro = computeKey('models/gemini-2.5-pro:generateContent', body)
  const flash = computeKey('models/gemini-2.5-flash:generateContent', body)
  expect(pro).not.toBe(flash)
  expect(
    computeKey('models/m:streamGenerateContent', body, undefined, 'POST', { alt: 'sse' }),
  ).not.toBe(computeKey('models/m:streamGenerateContent', body))
  expect(requestModel(body, '/v1beta/models/gemini-2.5-pro:generateContent')).toBe('gemini-2.5-pro')
  expect(requestModel(body, '/model/anthropic.claude-3%3A0/converse')).toBe('anthropic.claude-3:0')
})
