// The commit and branch a run was made at, when git is there: what `rubricate history` names
// where a trend moved.
import { execFileSync } from 'node:child_process'

/**
 * `git rev-parse HEAD` and the branch in `root`; on a detached HEAD (a CI checkout of a pull
 * request), the branch CI names (`GITHUB_HEAD_REF`, `GITHUB_REF_NAME`). Outside git, neither.
 * @internal
 */
export function gitRevision(root: string): { commit?: string; branch?: string } {
  const git = (args: string[]): string | undefined => {
    try {
      return execFileSync('git', args, {
        cwd: root,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
        timeout: 5_000,
      }).trim()
    } catch {
      return undefined
    }
  }
  const commit = git(['rev-parse', 'HEAD'])
  if (!commit) return {}
  const named = git(['rev-parse', '--abbrev-ref', 'HEAD'])
  const branch =
    named && named !== 'HEAD'
      ? named
      : process.env.GITHUB_HEAD_REF || process.env.GITHUB_REF_NAME || undefined
  return { commit, ...(branch ? { branch } : {}) }
}
