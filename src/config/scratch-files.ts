/**
 * Writing rubricate's scratch files (live-call counts, normalisation notes, the record of the
 * last run) under `scratchDir`. The folder is the user's to fix when it is broken (a file or a
 * dangling link where a folder should be, a folder that is not writable): that is said as such,
 * with the path and the fix, never as a bug in rubricate.
 */

import { appendFileSync, existsSync, lstatSync, mkdirSync, readlinkSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { UsageError } from '../errors'
import { messages } from '../messages'
import { displayPath } from './paths'

/** Make a scratch folder (and the folders above it); a fault is a usage error that says how to fix it. @internal */
export function makeScratchFolder(folder: string): void {
  try {
    mkdirSync(folder, { recursive: true })
  } catch (error) {
    throw scratchFault(folder, error)
  }
}

/** Append a line to a scratch file, making its folder first. @internal */
export function appendScratchLine(folder: string, file: string, line: string): void {
  makeScratchFolder(folder)
  try {
    appendFileSync(join(folder, file), line)
  } catch (error) {
    throw scratchFault(join(folder, file), error, true)
  }
}

/**
 * The usage error for a scratch path that cannot be written: which path on the way is at fault (a
 * file, a dangling link, a folder it may not write), and that deleting it loses nothing.
 * @internal
 */
export function scratchFault(path: string, error: unknown, isFile = false): UsageError {
  const code = (error as NodeJS.ErrnoException).code ?? String(error)
  const blocker = blockingPath(path, isFile)
  const what =
    blocker === undefined
      ? 'it cannot be written'
      : blocker.kind === 'file'
        ? `"${displayPath(blocker.path)}" is a file, not a folder`
        : blocker.kind === 'dangling'
          ? `"${displayPath(blocker.path)}" is a link to "${blocker.target}", which does not exist`
          : `"${displayPath(blocker.path)}" is not a folder rubricate may write`
  const remove = blocker && blocker.kind !== 'unwritable' ? blocker.path : path
  return new UsageError(
    messages.scratchUnusable(displayPath(path), code, what, displayPath(remove)),
    {
      cause: error,
    },
  )
}

/** The first path from the top down to `path` that is not a folder (or a link to one). */
function blockingPath(
  path: string,
  isFile: boolean,
):
  | { kind: 'file' | 'unwritable'; path: string }
  | { kind: 'dangling'; path: string; target: string }
  | undefined {
  const chain: string[] = []
  for (let at = path; dirname(at) !== at; at = dirname(at)) chain.unshift(at)
  for (const at of chain) {
    let stat: ReturnType<typeof lstatSync>
    try {
      stat = lstatSync(at)
    } catch {
      // Nothing there yet: the folders above it are fine, so the last existing one is not writable.
      const parent = dirname(at)
      return { kind: 'unwritable', path: parent }
    }
    if (stat.isSymbolicLink()) {
      if (!existsSync(at)) return { kind: 'dangling', path: at, target: readlinkSync(at) }
      continue
    }
    // The scratch file itself may be a file; anything above it must be a folder.
    if (!stat.isDirectory())
      return at === path && isFile ? { kind: 'unwritable', path: at } : { kind: 'file', path: at }
  }
  return { kind: 'unwritable', path }
}
