/**
 * CI detection the way Vitest does it (through std-env 4.3, which Vitest 4.1 depends on): `CI`
 * set, or the variable of a known provider. Jenkins, Azure Pipelines, TeamCity and Bamboo set no
 * `CI`, and Vitest already treats their runs as CI; rubricate must agree, or it records live
 * (paid judge calls, cassettes written into the CI checkout) where Vitest itself plays safe.
 * Unlike std-env, `CI=false` and `CI=0` are an explicit opt-out, whatever provider is detected.
 * Reproduced rather than imported: std-env reads `process.env` once, at import time, where this
 * takes the environment as an argument (as every mode decision here does), and its ESM-only
 * build would be `require`d by rubricate's CommonJS entries. test/core/detect-ci.test.ts checks
 * this table against the std-env that Vitest installs.
 */

/** What {@link detectCi} found. @internal */
export interface CiDetection {
  /** The run is on CI. */
  ci: boolean
  /** The CI provider's std-env name (`jenkins`, `github_actions`...), when one is detected. */
  provider: string | undefined
  /** The variable that revealed the provider. */
  variable: string | undefined
}

// [provider name, variable that reveals it (default: the name upper-cased), is it CI?], in the
// order std-env checks them: the first variable set names the provider. Providers marked
// `false` are hosting platforms that build outside CI (a preview deployment, an online editor).
type Provider = readonly [name: string, variable?: string | undefined, ci?: boolean | undefined]
const PROVIDERS: readonly Provider[] = [
  ['appveyor'],
  ['aws_amplify', 'AWS_APP_ID', true],
  ['azure_pipelines', 'SYSTEM_TEAMFOUNDATIONCOLLECTIONURI'],
  ['azure_static', 'INPUT_AZURE_STATIC_WEB_APPS_API_TOKEN'],
  ['appcircle', 'AC_APPCIRCLE'],
  ['bamboo', 'bamboo_planKey'],
  ['bitbucket', 'BITBUCKET_COMMIT'],
  ['bitrise', 'BITRISE_IO'],
  ['buddy', 'BUDDY_WORKSPACE_ID'],
  ['buildkite'],
  ['circle', 'CIRCLECI'],
  ['cirrus', 'CIRRUS_CI'],
  ['cloudflare_pages', 'CF_PAGES', true],
  ['cloudflare_workers', 'WORKERS_CI', true],
  ['google_cloudrun', 'K_SERVICE'],
  ['google_cloudrun_job', 'CLOUD_RUN_JOB'],
  ['codebuild', 'CODEBUILD_BUILD_ARN'],
  ['codefresh', 'CF_BUILD_ID'],
  ['drone'],
  ['drone', 'DRONE_BUILD_EVENT'],
  ['dsari'],
  ['github_actions'],
  ['gitlab', 'GITLAB_CI'],
  ['gitlab', 'CI_MERGE_REQUEST_ID'],
  ['gocd', 'GO_PIPELINE_LABEL'],
  ['layerci'],
  ['jenkins', 'JENKINS_URL'],
  ['hudson', 'HUDSON_URL'],
  ['magnum'],
  ['netlify'],
  ['netlify', 'NETLIFY_LOCAL', false],
  ['nevercode'],
  ['render'],
  ['sail', 'SAILCI'],
  ['semaphore'],
  ['screwdriver'],
  ['shippable'],
  ['solano', 'TDDIUM'],
  ['strider'],
  ['teamcity', 'TEAMCITY_VERSION'],
  ['travis'],
  ['vercel', 'NOW_BUILDER'],
  ['vercel', 'VERCEL', false],
  ['vercel', 'VERCEL_ENV', false],
  ['appcenter', 'APPCENTER_BUILD_ID'],
  ['codesandbox', 'CODESANDBOX_SSE', false],
  ['codesandbox', 'CODESANDBOX_HOST', false],
  ['stackblitz'],
  ['stormkit'],
  ['cleavr'],
  ['zeabur'],
  ['codesphere', 'CODESPHERE_APP_ID', true],
  ['railway', 'RAILWAY_PROJECT_ID'],
  ['railway', 'RAILWAY_SERVICE_ID'],
  ['deno-deploy', 'DENO_DEPLOY'],
  ['deno-deploy', 'DENO_DEPLOYMENT_ID'],
  ['firebase_app_hosting', 'FIREBASE_APP_HOSTING', true],
  ['edgeone_pages', 'EO_PAGES_CI', true],
]

/** Every variable {@link detectCi} reads, `CI` included (the test suite clears them). @internal */
export const CI_VARIABLES: readonly string[] = [
  'CI',
  ...new Set(PROVIDERS.map(([name, variable]) => variable ?? name.toUpperCase())),
]

/**
 * Is this run on CI, and on which provider? `CI` set to anything but `''`, `false` or `0`, or a
 * CI provider's variable set (a hosting platform's build outside CI does not count). `CI=false`
 * or `CI=0` wins over a provider.
 * @internal
 */
export function detectCi(env: NodeJS.ProcessEnv): CiDetection {
  const flag = env.CI
  if (flag === 'false' || flag === '0')
    return { ci: false, provider: undefined, variable: undefined }
  // The first provider whose variable is set names the platform, as in std-env; it makes the run
  // CI unless it is a platform that also builds outside CI.
  const found = PROVIDERS.find(([name, variable]) => env[variable ?? name.toUpperCase()])
  const isProvider = found !== undefined && found[2] !== false
  return {
    ci: (flag !== undefined && flag !== '') || isProvider,
    provider: isProvider ? found[0] : undefined,
    variable: isProvider ? (found[1] ?? found[0].toUpperCase()) : undefined,
  }
}
