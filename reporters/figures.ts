// Every symbol and colour the reporter prints, in one place. Renderers take a `Colors` object, so
// they stay pure and their tests compare plain text.
/** Symbols of the verdict lines and the summary. @internal */
export const figures = {
  /** A criterion met, a scorer or loop that passed. */
  met: '✓',
  /** A required criterion unmet, a scorer or loop that failed. */
  unmet: '✗',
  /** An optional criterion unmet: reported, never failing. */
  optionalUnmet: '○',
  /** An assertion that could not be judged (judge error, cassette miss...). */
  error: '!',
  /** A test that passed, above its verdicts (Vitest's own mark). */
  testPassed: '✓',
  /** A test that failed, above its verdicts (Vitest's own mark). */
  testFailed: '×',
  /** A test skipped or not run, above its verdicts (Vitest's own mark). */
  testSkipped: '↓',
  /** Separates facts on one summary line. */
  dot: '·',
} as const

type Paint = (text: string) => string

/** Colours used by the renderers. With colours off, each is the identity. @internal */
export interface Colors {
  green: Paint
  red: Paint
  yellow: Paint
  dim: Paint
  bold: Paint
  gray: Paint
}

const identity: Paint = (text) => text

/** Colours that do nothing: for files, annotations and `NO_COLOR`. @internal */
export const plain: Colors = {
  green: identity,
  red: identity,
  yellow: identity,
  dim: identity,
  bold: identity,
  gray: identity,
}

const sgr =
  (open: number, close: number): Paint =>
  (text) =>
    `\u001b[${open}m${text}\u001b[${close}m`

const ansi: Colors = {
  green: sgr(32, 39),
  red: sgr(31, 39),
  yellow: sgr(33, 39),
  dim: sgr(2, 22),
  bold: sgr(1, 22),
  gray: sgr(90, 39),
}

/**
 * Colours decided the way Vitest decides its own (tinyrainbow 3's `isSupported`), so that one
 * screen or one piped log never mixes coloured and plain lines: never with `NO_COLOR` or
 * `--no-color`; else with `FORCE_COLOR`, `--color`, Windows, `CI`, or unless `FORCE_TTY=false` or
 * `TERM=dumb`. Whether the stream is a terminal does not count, as it does not for Vitest.
 * @internal
 */
export function colorsFor(
  env: NodeJS.ProcessEnv = process.env,
  argv: readonly string[] = process.argv,
  platform: NodeJS.Platform = process.platform,
): Colors {
  if ('NO_COLOR' in env || argv.includes('--no-color')) return plain
  const on =
    'FORCE_COLOR' in env ||
    argv.includes('--color') ||
    platform === 'win32' ||
    (env.FORCE_TTY !== 'false' && env.TERM !== 'dumb') ||
    'CI' in env
  return on ? ansi : plain
}
