// What `spec.workload` and `spec.networking.tls` put into config.yaml's `server` block (docs/config-generation.md;
// llama-stack's `server` settings), and the checks that need the finished config: an
// overrideConfig must say itself what llsd-render cannot write into it, and state kept in sqlite
// cannot be shared between pods.
import { posix } from 'node:path';
import type { FieldProblem } from '../lib/issues.js';
import { isPlainObject, setOwn } from '../lib/objects.js';
import { clip, code, listOf, quote } from '../lib/quote.js';
import type { Plan } from '../llsd/plan.js';
import { hasPersistentVolume, imageFacts, maxPods, minReplicas, serverPort, servesTls, type ScaledWorkload } from './workload.js';
import type { OgxPlan } from '../ogx/plan.js';
import { ogxHasStorage } from './ogx-workload.js';
import { containerEnvOf } from './pod-env.js';
import { idInfo, type EnvView } from './startup/context.js';
import { releaseProfiles, serverRelease, workloadDefaults } from '../catalog/catalog.js';
import { releaseName } from '../catalog/versions.js';

/** Paths of the server certificate and key in the container (the mounted kubernetes.io/tls Secret). */
export function tlsFiles(): { certfile: string; keyfile: string } {
  const { mountPath, certFile, keyFile } = workloadDefaults().tls;
  return { certfile: posix.join(mountPath, certFile), keyfile: posix.join(mountPath, keyFile) };
}

/**
 * A generated config: `server.workers` (where the release has it); with TLS,
 * `server.tls_certfile`/`tls_keyfile`; on strict-TLS releases without TLS, `server.insecure` when
 * the stock entrypoint's `--insecure` may not reach the server; and `server.port` where the
 * release reads it, so the config says the port the container serves.
 */
export function applyServerSettings(config: Record<string, unknown>, plan: Plan, problems: FieldProblem[]): void {
  const workers = plan.llsd.spec.workload?.workers;
  const server = (): Record<string, unknown> => {
    if (!isPlainObject(config.server)) setOwn(config, 'server', {});
    return config.server as Record<string, unknown>;
  };
  if (workers !== undefined) {
    if (plan.profile.serverWorkers) setOwn(server(), 'workers', workers);
    else problems.push(noWorkersSetting(plan));
  }
  if (servesTls(plan.llsd)) {
    const files = tlsFiles();
    setOwn(server(), 'tls_certfile', files.certfile);
    setOwn(server(), 'tls_keyfile', files.keyfile);
    if (plan.profile.strictTls && ownCommand(plan)) problems.push(fipsCiphersNote(plan));
  } else if (plan.profile.strictTls && (ownCommand(plan) || ownArgs(plan) || !imageFacts(plan).entrypointInsecure)) {
    // Without certificates a strict-TLS server exits unless insecure; a command of the LLSD's own
    // may not pass `--insecure`, so the config says it. (Args go after the stock entrypoint's
    // `--insecure`; written anyway, it changes nothing there and keeps the config self-sufficient.)
    setOwn(server(), 'insecure', true);
    if (ownCommand(plan) || ownArgs(plan)) {
      const field = ownCommand(plan) ? 'command' : 'args';
      problems.push({
        severity: 'info',
        path: ['spec', 'workload', 'overrides', field],
        message: `${releaseName(plan.release)} refuses to start without TLS unless told it may, and the container ${field} is the LLSD's own, so the ` +
          `generated config.yaml sets \`server.insecure: true\` (enable \`networking.tls\` to serve TLS instead)`,
      });
    }
  }
  const current = isPlainObject(config.server) ? config.server.port : undefined;
  if (plan.profile.serverPortRead && (plan.llsd.spec.networking?.port !== undefined || (current !== undefined && current !== serverPort(plan)))) {
    setOwn(server(), 'port', serverPort(plan));
  }
  problems.push(...checkWorkersEnv(plan));
}

const ownCommand = (plan: Plan): boolean => plan.llsd.spec.workload?.overrides?.command !== undefined;

/** The LLSD's command or args pass `--insecure`, or its command is the image's own entrypoint (which does). */
const commandIsInsecure = (plan: Plan): boolean => passesInsecure(plan.llsd.spec.workload?.overrides ?? {}, imageFacts(plan));

/**
 * A container command (and args) that passes `--insecure`, or whose command is the image's own
 * entrypoint when that passes it: a strict-TLS server then starts without TLS (both APIs).
 */
export function passesInsecure(
  overrides: { command?: readonly string[] | undefined; args?: readonly string[] | undefined },
  facts: { entrypoint?: string | undefined; entrypointInsecure?: boolean | undefined },
): boolean {
  const { command = [], args = [] } = overrides;
  // The facts name the script by its file name or its path; a command may name it either way.
  const script = (facts.entrypoint ?? '').split('/').pop();
  return [...command, ...args].includes('--insecure') || (script !== '' && (command[0] ?? '').split('/').pop() === script && facts.entrypointInsecure === true);
}
const ownArgs = (plan: Plan): boolean => plan.llsd.spec.workload?.overrides?.args !== undefined;

/** With certificates and without `--insecure`, a strict-TLS server accepts only FIPS ciphers: say so, since clients must offer one. */
function fipsCiphersNote(plan: Plan): FieldProblem {
  const { entrypoint } = imageFacts(plan);
  return {
    severity: 'info',
    path: ['spec', 'workload', 'overrides', 'command'],
    message: `replaces the image entrypoint${entrypoint ? ` (${entrypoint}, which passes \`--insecure\`)` : ''}: ` +
      `${releaseName(plan.release)} then serves TLS with its ciphers forced to a FIPS list (\`server.tls_config.ciphers\`), and \`verify_tls: false\` in ` +
      `\`server.auth\` stops it; clients must offer one of those ciphers`,
  };
}

/**
 * The release's workers env var (OGX_WORKERS) overrides `server.workers`: one set in
 * `workload.overrides.env` to another value than `workload.workers` wins, while the CPU requests
 * follow `workers`.
 */
function checkWorkersEnv(plan: Plan): FieldProblem[] {
  const name = imageFacts(plan).workersEnv;
  const workers = plan.llsd.spec.workload?.workers;
  const env = (plan.llsd.spec.workload?.overrides?.env ?? []) as Array<{ name: string; value?: unknown }>;
  const at = name === undefined ? -1 : env.findIndex((e) => e.name === name);
  const given = env[at];
  if (!given || workers === undefined || given.value === String(workers)) return [];
  return [
    {
      severity: 'warning',
      code: 'workers-mismatch',
      path: ['spec', 'workload', 'overrides', 'env', at],
      message: `sets ${name}, which overrides \`server.workers: ${workers}\` (\`workload.workers\`) in ${releaseName(plan.release)}, while the CPU requests ` +
        `follow \`workload.workers\`: remove ${name} and set \`workload.workers\` only`,
    },
  ];
}

/**
 * An overrideConfig is used as it is: what the LLSD asks of `server` must already be there. TLS
 * without the cert and key would leave the server on HTTP while the probes ask for HTTPS (the pod
 * never becomes ready): an error. Workers that differ only change how much the server can do: a
 * warning.
 */
export function checkOverrideServerSettings(config: Record<string, unknown>, plan: Plan, configMapName: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const server = isPlainObject(config.server) ? config.server : {};
  const where = `the config.yaml of the ConfigMap ${quote(configMapName)} (overrideConfig)`;
  const workers = plan.llsd.spec.workload?.workers;
  if (workers !== undefined && !plan.profile.serverWorkers) {
    problems.push(noWorkersSetting(plan));
  } else if (workers !== undefined && (server.workers === undefined || (typeof server.workers === 'number' && server.workers !== workers))) {
    problems.push({
      severity: 'warning',
      code: 'workers-mismatch',
      path: ['spec', 'workload', 'workers'],
      message: `is ${workers}, but ${where} ` +
        `${server.workers === undefined
          ? 'does not set `server.workers`, so the server runs 1 worker'
          : `sets \`server.workers: ${String(server.workers)}\``}; ` +
        `llsd-render does not change a config it does not generate: set \`server.workers: ${workers}\` there`,
    });
  }
  const files = tlsFiles();
  const given = { certfile: server.tls_certfile, keyfile: server.tls_keyfile };
  if (servesTls(plan.llsd)) {
    const missing = (['certfile', 'keyfile'] as const).filter((k) => typeof given[k] !== 'string' || given[k] === '');
    if (missing.length > 0) {
      problems.push({
        path: ['spec', 'networking', 'tls', 'enabled'],
        message: `needs \`server.tls_certfile\` and \`server.tls_keyfile\` in ${where}, which does not set ` +
          `${missing.map((k) => `\`tls_${k}\``).join(' or ')}: the server would serve HTTP while the probes ask for HTTPS. Add \`server: {tls_certfile: ` +
          `${files.certfile}, tls_keyfile: ${files.keyfile}}\` (where the Secret is mounted)`,
      });
    } else {
      for (const k of ['certfile', 'keyfile'] as const) {
        if (given[k] === files[k]) continue;
        problems.push({
          severity: 'warning',
          code: 'tls-mismatch',
          path: ['spec', 'networking', 'tls', 'secretName'],
          message: `is mounted at ${files[k]}, but ${where} sets ${code(`server.tls_${k}: ${String(given[k])}`)}; unless you mount that file yourself ` +
            `(\`workload.overrides\`), the server cannot start: write ${files[k]} there`,
        });
      }
    }
  } else if (
    plan.profile.strictTls &&
    ownCommand(plan) &&
    !commandIsInsecure(plan) &&
    server.insecure !== true &&
    (given.certfile === undefined || given.keyfile === undefined)
  ) {
    problems.push({
      path: ['spec', 'workload', 'overrides', 'command'],
      message: `replaces the image entrypoint${imageFacts(plan).entrypoint ? ` (${imageFacts(plan).entrypoint})` : ''}, which passes \`--insecure\`: ` +
        `${releaseName(plan.release)} then exits ("TLS required") because ${where} sets neither \`server.tls_certfile\`/\`tls_keyfile\` nor ` +
        `\`server.insecure: true\`. Add \`server: {insecure: true}\` there, pass \`--insecure\` in the command, or enable \`networking.tls\``,
    });
  } else if (given.certfile !== undefined || given.keyfile !== undefined) {
    problems.push({
      severity: 'warning',
      code: 'tls-mismatch',
      path: ['spec', 'overrideConfig', 'configMapName'],
      message: `names a ConfigMap whose config.yaml sets \`server.tls_certfile\`/\`tls_keyfile\`, so the server serves HTTPS, but \`spec.networking.tls\` ` +
        `is not enabled: the probes ask for HTTP and the certificate is not mounted; set \`networking.tls: {enabled: true, secretName: <tls secret>}\`, or ` +
        `remove the TLS keys from the config`,
    });
  }
  return problems;
}

/**
 * More than one pod: state that lives in the pod (sqlite files on an emptyDir) is one database per
 * pod, and a ReadWriteOnce volume attaches to one node only. Also the autoscaler's bounds and a
 * disruption budget that would block every drain.
 */
export function checkScaling(config: Record<string, unknown>, plan: Plan): FieldProblem[] {
  const { llsd } = plan;
  return scalingProblems(config, {
    workload: llsd.spec.workload ?? {},
    persistentVolume: hasPersistentVolume(llsd),
    storageGiven: llsd.spec.storage !== undefined,
    sharedState: { sqlite: 'set `spec.storage` to postgres (sql) and redis or postgres (kv)', volume: 'keep the state in postgres and redis (`spec.storage`)' },
    envView: overridesEnvView(llsd.spec.workload?.overrides?.env, plan.profile.envSyntax === 'bash'),
    routed: routedApis(plan.catalogRelease),
  });
}

/** An OGXServer's `checkScaling`: its sqlite SQL store cannot move to postgres by `spec.storage` (divergence A11 in docs/ogxserver.md). */
export function checkOgxScaling(config: Record<string, unknown>, plan: OgxPlan): FieldProblem[] {
  return scalingProblems(config, {
    workload: plan.server.spec.workload ?? {},
    persistentVolume: ogxHasStorage(plan),
    storageGiven: plan.server.spec.storage !== undefined,
    sharedState: {
      sqlite: 'set `spec.storage.kv` to redis and give a PostgreSQL SQL store through `spec.overrideConfig`',
      volume: 'keep the state in redis and PostgreSQL (`spec.storage.kv`, and the SQL store through `spec.overrideConfig`)',
    },
    envView: overridesEnvView(plan.server.spec.workload?.overrides?.env, plan.profile.envSyntax === 'bash'),
    routed: routedApis(plan.catalogRelease),
  });
}

interface ScalingInput {
  workload: ScaledWorkload & { podDisruptionBudget?: { minAvailable?: number | string | undefined } | undefined };
  persistentVolume: boolean;
  storageGiven: boolean;
  /** What to write instead of state on each pod: for sqlite stores, and for the ReadWriteOnce volume. */
  sharedState: { sqlite: string; volume: string };
  /** The env `workload.overrides.env` gives the pod: which providers it switches on. */
  envView: EnvView;
  /** APIs with a routing table (several providers each); any other keeps one provider, the last. */
  routed: ReadonlySet<string>;
}

/** The pod env `workload.overrides.env` alone makes (the Deployment is not built yet), with the release's placeholder syntax. */
function overridesEnvView(env: unknown, bash: boolean): EnvView {
  return { env: containerEnvOf({ env }, undefined, undefined), bash };
}

const routedApis = (catalogRelease: string): ReadonlySet<string> => new Set(serverRelease(catalogRelease)?.apis.routed ?? []);

function scalingProblems(config: Record<string, unknown>, input: ScalingInput): FieldProblem[] {
  const { workload, persistentVolume, storageGiven, sharedState, envView, routed } = input;
  const problems: FieldProblem[] = [];
  const pods = maxPods(workload);
  const autoscaling = workload.autoscaling;
  const scalePath = autoscaling ? ['spec', 'workload', 'autoscaling', 'maxReplicas'] : ['spec', 'workload', 'replicas'];
  const runs = autoscaling ? `lets the autoscaler run up to ${pods} pods` : `runs ${pods} pods`;
  if (autoscaling && workload.replicas !== undefined && workload.replicas > autoscaling.maxReplicas) {
    problems.push({
      path: ['spec', 'workload', 'replicas'],
      message: `is ${workload.replicas}, above \`autoscaling.maxReplicas\` (${autoscaling.maxReplicas}): the autoscaler's minimum would exceed its maximum; ` +
        `with autoscaling set \`autoscaling.minReplicas\` instead and remove \`replicas\``,
    });
  }
  if (pods > 1 && persistentVolume) {
    problems.push({
      severity: 'warning',
      code: 'scaled-with-local-state',
      path: scalePath,
      message: `${runs}, but \`workload.storage\` is a ReadWriteOnce volume, which attaches to one node only: pods placed on another node stay Pending. Run ` +
        `one replica, or remove \`workload.storage\` and ${sharedState.volume}`,
    });
  } else if (pods > 1) {
    const local = podLocalState(config, envView, routed);
    if (local.sqlite.length > 0 || local.files.length > 0) {
      const where = [
        ...(local.sqlite.length > 0 ? [`sqlite: ${listOf(local.sqlite, { each: (store) => store })}`] : []),
        ...(local.files.length > 0 ? [`provider files: ${listOf(local.files, { each: (file) => file })}`] : []),
      ];
      const instead = [
        ...(local.sqlite.length > 0 ? [sharedState.sqlite] : []),
        ...(local.files.length > 0 ? ['use remote providers for that data (pgvector, s3 files, …)'] : []),
      ];
      problems.push({
        severity: 'warning',
        code: 'scaled-with-local-state',
        path: scalePath,
        message: `${runs}, but ${storageGiven ? 'the config' : "the distribution's default config"} keeps state on each pod's own volume ` +
          `(${where.join('; ')}): each pod would have its own copy, so what is registered or uploaded through one pod is missing from the others. ` +
          `${capitalise(instead.join(', and '))}; or run one replica`,
      });
    }
  }
  const minAvailable = workload.podDisruptionBudget?.minAvailable;
  if (typeof minAvailable === 'number' && minAvailable >= minReplicas(workload) && !autoscaling) {
    problems.push({
      severity: 'warning',
      code: 'pdb-blocks-eviction',
      path: ['spec', 'workload', 'podDisruptionBudget', 'minAvailable'],
      message: `is ${minAvailable} with ${workload.replicas ?? 1} replica${(workload.replicas ?? 1) === 1 ? '' : 's'}: no pod may ever be evicted, so node ` +
        `drains block; set it below \`replicas\`, or use \`maxUnavailable: 1\``,
    });
  }
  return problems;
}

const capitalise = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

function noWorkersSetting(plan: Plan): FieldProblem {
  const since = releaseProfiles().find((p) => p.serverWorkers)?.since;
  return {
    severity: 'warning',
    code: 'field-has-no-effect',
    path: ['spec', 'workload', 'workers'],
    message: `has no effect on ${releaseName(plan.release)}, which has no \`server.workers\` setting${since ? ` (it came in ${since})` : ''}: the server ` +
      `runs one worker process. Remove it${since ? `, or render for release ${since} or later` : ''}`,
  };
}

/**
 * Where the config keeps state in files of the pod: sqlite stores (0.3.0+ backends of type
 * `kv_sqlite`/`sql_sqlite`, ≤ 0.2 stores of `type: sqlite`), and providers that write files of
 * their own (`db_path`, `storage_dir`: sqlite-vec, milvus lite, localfs files, …). Providers
 * switched on by an env var (`${env.X:+id}`) are left out: they are off unless the user sets it.
 */
function podLocalState(
  config: Record<string, unknown>,
  envView: EnvView,
  routed: ReadonlySet<string>,
): { sqlite: string[]; files: string[] } {
  const backends = isPlainObject(config.storage) && isPlainObject(config.storage.backends) ? config.storage.backends : {};
  const sqlite = Object.entries(backends)
    .filter(([, backend]) => isPlainObject(backend) && (backend.type === 'kv_sqlite' || backend.type === 'sql_sqlite'))
    .map(([name]) => `storage.backends.${clip(name)}`);
  for (const key of ['metadata_store', 'inference_store']) {
    const store = config[key];
    const inner = isPlainObject(store) && isPlainObject(store.sql_store_config) ? store.sql_store_config : store;
    if (isPlainObject(inner) && inner.type === 'sqlite') sqlite.push(key);
  }
  const files: string[] = [];
  const providers = isPlainObject(config.providers) ? config.providers : {};
  for (const [api, entries] of Object.entries(providers)) {
    if (!Array.isArray(entries)) continue;
    // An API of one provider keeps the last one on: a vendor's base lists s3 after localfs, on by ENABLE_S3.
    const on = entries.map((entry: unknown) => isPlainObject(entry) && idInfo(envView, entry.provider_id).state === 'enabled');
    const lastOn = routed.has(api) ? -1 : on.lastIndexOf(true);
    for (const [index, entry] of entries.entries()) {
      if (index < lastOn) continue;
      if (!isPlainObject(entry) || typeof entry.provider_id !== 'string' || entry.provider_id.includes('${') || !isPlainObject(entry.config)) continue;
      const keys = localFileKeys(entry.config);
      if (keys.length > 0) files.push(`${clip(api)} ${clip(entry.provider_id)} (${listOf(keys)})`);
    }
  }
  return { sqlite, files };
}

/** Keys of a provider config (nested stores included) that name a file or directory of the pod. */
function localFileKeys(config: Record<string, unknown>, prefix = ''): string[] {
  const keys: string[] = [];
  for (const [key, value] of Object.entries(config)) {
    if ((key === 'db_path' || key === 'storage_dir') && typeof value === 'string' && value !== '') keys.push(`${prefix}${key}`);
    else if (isPlainObject(value)) keys.push(...localFileKeys(value, `${prefix}${key}.`));
  }
  return keys;
}
