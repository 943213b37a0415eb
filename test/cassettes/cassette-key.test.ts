import { expect, test } from 'vitest'
import { computeKey } from '../../src/cassettes/exchange/prepared-request'
import { canonicalJson, sortKeysDeep } from '../../src/cassettes/store/canonical-json'
import { modelEndpoint, requestModel } from '../../src/cassettes/store/model-endpoint'

const chat = {
  model: 'gpt-4.1-mini',
  messages: [
    { role: 'system', content: 'Judge strictly.' },
    { role: 'user', content: 'Is the sky blue?' },
  ],
  temperature: 0,
}

test('canonical JSON sorts keys at every depth, keeps array order and drops undefined', () => {
  const value = { b: 1, a: { d: [3, { z: 1, y: undefined, x: 2 }], c: 'é"\n' }, u: undefined }
  expect(canonicalJson(value)).toBe('{"a":{"c":"é\\"\\n","d":[3,{"x":2,"z":1}]},"b":1}')
  expect(canonicalJson(value)).toBe(JSON.stringify(sortKeysDeep(value)))
  expect(canonicalJson([undefined, () => 1, null, Number.NaN])).toBe('[null,null,null,null]')
})

test('canonical JSON and keys do not change from one version to the next (recorded cassettes stay valid)', () => {
  const value = {
    b: [1, { '10': 1, '9': 2, a: undefined, 'é"\n': { toJSON: () => ({ z: 1, y: [] }) } }],
    a: {},
    '': null,
    c: [[], [{}]],
    d: new Date(0),
    e: -0,
    f: 1e21,
  }
  expect(canonicalJson(value)).toBe(
    '{"":null,"a":{},"b":[1,{"10":1,"9":2,"é\\"\\n":{"y":[],"z":1}}],"c":[[],[{}]],"d":"1970-01-01T00:00:00.000Z","e":0,"f":1e+21}',
  )
  expect(computeKey('chat/completions', chat)).toBe(
    '2fb188419e0cc422e6cfb3d74b26e4b81fab73278b8223ccf7a1db982633c189',
  )
})

test('a trial number changes the key, and no trial keys a request as before', () => {
  const plain = computeKey('chat/completions', chat)
  expect(computeKey('chat/completions', chat, undefined)).toBe(plain)
  const trials = [1, 2, 3].map((trial) => computeKey('chat/completions', chat, trial))
  expect(new Set([plain, ...trials]).size).toBe(4)
  expect(computeKey('chat/completions', chat, 2)).toBe(trials[1])
})

test('a body with its keys in another order has the same key', () => {
  const reordered = {
    temperature: 0,
    messages: chat.messages.map((m) => ({ content: m.content, role: m.role })),
    model: 'gpt-4.1-mini',
  }
  expect(computeKey('chat/completions', reordered)).toBe(computeKey('chat/completions', chat))
  expect(computeKey('chat/completions', chat)).toMatch(/^[0-9a-f]{64}$/)
})

test('fields that do not change the reply are left out of the key', () => {
  const key = computeKey('chat/completions', chat)
  expect(
    computeKey('chat/completions', {
      ...chat,
      user: 'u-1',
      metadata: { run: 7 },
      store: true,
      prompt_cache_key: 'p',
      safety_identifier: 's',
    }),
  ).toBe(key)
})

test('model, sampling, tools, stream, message order and endpoint all change the key', () => {
  const key = computeKey('chat/completions', chat)
  const variants = [
    { ...chat, model: 'gpt-4.1' },
    { ...chat, temperature: 1 },
    { ...chat, seed: 1 },
    { ...chat, stream: true },
    { ...chat, tools: [{ type: 'function', function: { name: 'f' } }] },
    { ...chat, response_format: { type: 'json_object' } },
    { ...chat, messages: [...chat.messages].reverse() },
  ]
  for (const variant of variants) expect(computeKey('chat/completions', variant)).not.toBe(key)
  expect(computeKey('responses', chat)).not.toBe(key)
})

test('the endpoint is the matched suffix, whatever the host and path prefix', () => {
  const endpointOf = (path: string) => modelEndpoint(new URL(path, 'http://x.example'))?.endpoint
  expect(endpointOf('/v1/chat/completions')).toBe('chat/completions')
  expect(endpointOf('/api/v1/chat/completions')).toBe('chat/completions')
  expect(endpointOf('/openai/deployments/my-gpt/chat/completions')).toBe('chat/completions')
  expect(endpointOf('/v1/completions')).toBe('completions')
  expect(endpointOf('/v1/responses')).toBe('responses')
  expect(endpointOf('/v1/embeddings/')).toBe('embeddings')
  expect(endpointOf('/api/chat')).toBe('api/chat')
})

test('the model comes from the body, else from an Azure deployment in the path', () => {
  expect(requestModel(chat)).toBe('gpt-4.1-mini')
  expect(requestModel({ messages: [] }, '/openai/deployments/my%20gpt/chat/completions')).toBe(
    'my gpt',
  )
  expect(requestModel('text body')).toBeUndefined()
})
