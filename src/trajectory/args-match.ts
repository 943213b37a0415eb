// How a reference call's arguments are compared with a call's: deep equality, a subset of keys,
// not at all, or the user's own function; per tool when `argsByTool` says so.

import { UsageError } from '../errors'
import { messages } from '../messages'
import { trajectoryMessages } from './trajectory-messages'

/** Compares an expected call's arguments with a call's: `true` when they match. */
export type ToolArgsMatcher = (expected: unknown, actual: unknown, name: string) => boolean

/**
 * How arguments are compared: `'exact'` (deep equality), `'subset'` (every expected key, deeply,
 * and any others), `'ignore'` (the tool's name alone), or a function.
 */
export type ToolArgsMode = 'exact' | 'subset' | 'ignore' | ToolArgsMatcher

/** The argument rules of one match: the default, and the tools that have their own. @internal */
export interface ArgsRules {
  args: ToolArgsMode
  byTool: Readonly<Record<string, ToolArgsMode>>
}

const MODES = ['exact', 'subset', 'ignore', 'a function (expected, actual, name) => boolean']

/** The `args` and `argsByTool` options, checked; `where` names the function. @internal */
export function checkArgsRules(
  where: string,
  args: unknown,
  byTool: unknown,
  fallback: ToolArgsMode,
): ArgsRules {
  const checked = checkMode(`${where} option "args"`, args ?? fallback)
  if (byTool === undefined) return { args: checked, byTool: {} }
  if (typeof byTool !== 'object' || byTool === null || Array.isArray(byTool)) {
    throw new UsageError(trajectoryMessages.argsByToolNotObject(where, byTool))
  }
  const rules: Record<string, ToolArgsMode> = {}
  for (const [name, mode] of Object.entries(byTool)) {
    rules[name] = checkMode(`${where} option "argsByTool.${name}"`, mode)
  }
  return { args: checked, byTool: rules }
}

function checkMode(where: string, mode: unknown): ToolArgsMode {
  if (mode === 'exact' || mode === 'subset' || mode === 'ignore' || typeof mode === 'function') {
    return mode as ToolArgsMode
  }
  throw new UsageError(messages.invalidChoice(where, mode, MODES))
}

/** The mode that compares a call of `name`: its own, else the default. @internal */
export function argsModeFor(rules: ArgsRules, name: string): ToolArgsMode {
  return Object.hasOwn(rules.byTool, name) ? (rules.byTool[name] as ToolArgsMode) : rules.args
}

/**
 * True when a call's arguments fit the expected ones under `mode`. Asymmetric matchers
 * (`expect.any(String)`) in the expected arguments match as they do in `toEqual`.
 * @internal
 */
export function argsFit(
  mode: ToolArgsMode,
  expected: unknown,
  actual: unknown,
  name: string,
): boolean {
  if (mode === 'ignore') return true
  if (mode === 'exact') return deepEqual(expected, actual)
  if (mode === 'subset') return isSubset(expected, actual)
  return Boolean(mode(expected, actual, name))
}

/** Deep equality of JSON-like values; an asymmetric matcher on the expected side decides. @internal */
export function deepEqual(expected: unknown, actual: unknown): boolean {
  if (isAsymmetric(expected)) return expected.asymmetricMatch(actual)
  if (Object.is(expected, actual)) return true
  if (!isObject(expected) || !isObject(actual)) return false
  if (Array.isArray(expected) !== Array.isArray(actual)) return false
  const keysA = Object.keys(expected)
  const keysB = Object.keys(actual)
  if (keysA.length !== keysB.length) return false
  return keysA.every(
    (key) =>
      Object.hasOwn(actual, key) &&
      deepEqual(
        (expected as Record<string, unknown>)[key],
        (actual as Record<string, unknown>)[key],
      ),
  )
}

/** `expected`'s keys, deeply, are in `actual` with equal values; arrays compare whole. @internal */
export function isSubset(expected: unknown, actual: unknown): boolean {
  if (
    !isObject(expected) ||
    isAsymmetric(expected) ||
    Array.isArray(expected) ||
    !isObject(actual) ||
    Array.isArray(actual)
  ) {
    return deepEqual(expected, actual)
  }
  return Object.entries(expected).every(
    ([key, value]) =>
      Object.hasOwn(actual, key) && isSubset(value, (actual as Record<string, unknown>)[key]),
  )
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null
}

function isAsymmetric(value: unknown): value is { asymmetricMatch(actual: unknown): boolean } {
  return (
    isObject(value) &&
    typeof (value as { asymmetricMatch?: unknown }).asymmetricMatch === 'function'
  )
}
