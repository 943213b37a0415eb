/** A provider a `'<provider>/<model>'` judge string may name: its OpenAI-compatible endpoint. @internal */
export interface ProviderEndpoint {
  /** Default base URL of its OpenAI-compatible Chat Completions API. */
  baseURL: string
  /** The conventional environment variable of its API key; `undefined`: it needs none. */
  keyVariable: string | undefined
  /** The environment variable that overrides `baseURL`. */
  baseURLVariable: string
}

// The providers Mastra users name most, each at its OpenAI-compatible endpoint and with the key
// variable its own SDK and Mastra's model router read. Adding one is one more row.
const PROVIDERS: Record<string, ProviderEndpoint> = {
  openai: row('https://api.openai.com/v1', 'OPENAI'),
  anthropic: row('https://api.anthropic.com/v1', 'ANTHROPIC'),
  google: {
    baseURL: 'https://generativelanguage.googleapis.com/v1beta/openai',
    keyVariable: 'GOOGLE_GENERATIVE_AI_API_KEY',
    baseURLVariable: 'GOOGLE_BASE_URL',
  },
  groq: row('https://api.groq.com/openai/v1', 'GROQ'),
  mistral: row('https://api.mistral.ai/v1', 'MISTRAL'),
  deepseek: row('https://api.deepseek.com/v1', 'DEEPSEEK'),
  xai: row('https://api.x.ai/v1', 'XAI'),
  openrouter: row('https://openrouter.ai/api/v1', 'OPENROUTER'),
  together: row('https://api.together.xyz/v1', 'TOGETHER'),
  fireworks: row('https://api.fireworks.ai/inference/v1', 'FIREWORKS'),
  ollama: {
    baseURL: 'http://localhost:11434/v1',
    keyVariable: undefined,
    baseURLVariable: 'OLLAMA_BASE_URL',
  },
}

function row(baseURL: string, prefix: string): ProviderEndpoint {
  return { baseURL, keyVariable: `${prefix}_API_KEY`, baseURLVariable: `${prefix}_BASE_URL` }
}

/** The names of the known providers, for messages. @internal */
export const PROVIDER_NAMES: readonly string[] = Object.keys(PROVIDERS)

/** The endpoint of a known provider, or `undefined`. @internal */
export function providerEndpoint(name: string): ProviderEndpoint | undefined {
  return Object.hasOwn(PROVIDERS, name) ? PROVIDERS[name] : undefined
}
