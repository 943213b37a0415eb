/**
 * Writing a plan of files into a project, all or none: every target is checked before the first
 * byte is written (inside the project, no symbolic link on the way, writable), each file is
 * written without following a link, and a write that fails anyway puts back every file written
 * before it. `init` uses it; any other mode that writes files into a project should too.
 */

import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  lstatSync,
  openSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import { UsageError } from '../errors'
import { cliMessages } from './cli-messages'

/** A file to write: its path relative to the project folder and its whole new text. @internal */
export interface PlannedWrite {
  file: string
  text: string
}

/**
 * Why `file` (relative to `root`) cannot be written safely, `undefined` when it can: it lies outside
 * the project, a folder on its way or the file itself is a symbolic link (a link, even a dangling
 * one, may lead out of the project), it is not a regular file, or it (or its folder, for a new
 * file) is not writable.
 * @internal
 */
export function writeRefusal(root: string, file: string): string | undefined {
  const path = resolve(root, file)
  const rel = relative(root, path)
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) {
    return `it is outside the project folder "${root}"`
  }
  const parts = rel.split(sep)
  for (let depth = 1; depth <= parts.length; depth++) {
    const at = join(root, ...parts.slice(0, depth))
    const stat = lstatOrUndefined(at)
    if (stat === undefined) break
    if (stat.isSymbolicLink()) {
      const target = readlinkSync(at)
      const dangling = existsSync(at) ? '' : ', which does not exist'
      return `"${relative(root, at)}" is a symbolic link to "${target}"${dangling}, and init does not write through a link: it could change a file outside the project`
    }
  }
  const stat = lstatOrUndefined(path)
  if (stat !== undefined && !stat.isFile()) return 'it is not a regular file'
  const writable = stat === undefined ? dirname(path) : path
  try {
    accessSync(writable, constants.W_OK)
  } catch (error) {
    const what = stat === undefined ? `its folder "${writable}"` : 'it'
    return `${what} is not writable (${(error as NodeJS.ErrnoException).code ?? 'denied'}): make ${stat === undefined ? 'the folder' : 'the file'} writable`
  }
  return undefined
}

/**
 * Write every planned file, or none: a write that fails puts back the files written before it (a
 * file that existed gets its old text, a new one is removed) and throws a usage error naming the
 * file, what failed and what was put back. New files are created exclusively and existing ones
 * opened with `O_NOFOLLOW`, so a link that appears after the checks is not followed either.
 * @internal
 */
export function writeAllOrNothing(root: string, writes: readonly PlannedWrite[]): void {
  const done: { path: string; before: string | undefined }[] = []
  for (const { file, text } of writes) {
    const path = resolve(root, file)
    try {
      const exists = lstatOrUndefined(path) !== undefined
      const before = exists ? readFileSync(path, 'utf8') : undefined
      if (before === undefined) {
        writeFileSync(path, text, { flag: 'wx' })
        done.push({ path, before })
      } else {
        const fd = openSync(
          path,
          constants.O_WRONLY | constants.O_TRUNC | (constants.O_NOFOLLOW ?? 0),
        )
        // Truncated from here on: put back even if the write itself fails.
        done.push({ path, before })
        try {
          writeSync(fd, text)
        } finally {
          closeSync(fd)
        }
      }
    } catch (error) {
      const notRestored = rollBack(done)
      throw new UsageError(
        cliMessages.initWriteFailed(
          file,
          (error as NodeJS.ErrnoException).code ?? (error as Error).message,
          done.map((d) => relative(root, d.path)),
          notRestored.map((p) => relative(root, p)),
        ),
        { cause: error },
      )
    }
  }
}

/** Put back what was written, newest first; answers the files that could not be put back. */
function rollBack(done: readonly { path: string; before: string | undefined }[]): string[] {
  const failed: string[] = []
  for (const { path, before } of [...done].reverse()) {
    try {
      if (before === undefined) rmSync(path, { force: true })
      else writeFileSync(path, before)
    } catch {
      failed.push(path)
    }
  }
  return failed
}

function lstatOrUndefined(path: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(path)
  } catch {
    return undefined
  }
}
