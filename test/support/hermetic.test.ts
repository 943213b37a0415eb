import { expect, test } from 'vitest'

test('a connection to an address outside loopback is refused before it leaves the machine', async () => {
  await expect(fetch('http://192.0.2.1/')).rejects.toThrow()
  const error = await fetch('http://192.0.2.1/').catch((e: Error) => e)
  expect(String((error as Error).cause)).toContain('Tests may only reach loopback addresses')
})
