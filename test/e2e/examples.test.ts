// The examples whose output is checked in: examples/flux (render.sh and rendered/),
// examples/v1alpha1-migration (convert and build), examples/postgres and
// examples/multiple-providers (build, and kpt fn eval where kpt applies), examples/rhoai and
// examples/ogx-external-access (kpt fn render). Each is run with the
// built bundle (and the real kpt) and compared with the checked-in files byte for byte.
// Expected files are rewritten only with UPDATE_EXAMPLES=1; review the diff before committing.
// quickstart, kpt, kustomize and the Argo CD app, and their OGXServer variants (kpt-ogx,
// kustomize/ogx-*, argocd/ogx-app), have their output checked in too (at the end);
// their behaviour is asserted by their own tests in this directory.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import {
  annotationsOf,
  changedFiles,
  copyDir,
  describeRun,
  generatedConfigMaps,
  ofKind,
  parseStream,
  readText,
  repoRoot,
  requireBundle,
  requireKustomize,
  requireTool,
  run,
  snapshotDir,
  useTempDirs,
  type K8sObject,
  type RunResult,
} from './tools.js';
import { imageName } from './image.js';

const update = process.env.UPDATE_EXAMPLES === '1';
const examples = join(repoRoot, 'examples');
const substituteAnnotation = 'kustomize.toolkit.fluxcd.io/substitute';

/** Compares `actual` with the checked-in file, or rewrites the file under UPDATE_EXAMPLES=1. */
function expectCheckedIn(path: string, actual: string): void {
  const name = relative(repoRoot, path);
  if (update) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, actual);
  }
  if (!existsSync(path)) throw new Error(`${name} is missing: run UPDATE_EXAMPLES=1 npx vitest run test/e2e/examples.test.ts and review it`);
  expect(actual, `${name} differs from a fresh render (UPDATE_EXAMPLES=1 rewrites it)`).toBe(readFileSync(path, 'utf8'));
}

function llsdRender(args: string[], cwd: string): RunResult {
  return run(process.execPath, [requireBundle(), ...args], { cwd });
}

function succeeded(result: RunResult): string {
  expect(result.status, describeRun(result)).toBe(0);
  return result.stdout;
}

/** Every `${…}` in `text`. */
const placeholders = (text: string): string[] => [...text.matchAll(/\$\{[^}]*\}/g)].map((m) => m[0]);

/**
 * A `${…}` that Flux's post-build substitution (fluxcd/pkg/envsubst) can parse: a variable name,
 * optionally followed by one of its operators. `${env.X}` is not one (Flux fails with
 * "missing closing brace").
 */
const fluxVariable = /^\$\{#?[_a-zA-Z][_a-zA-Z0-9]*([:=\-,^/#%][^}]*)?\}$/;

describe('examples/flux: render in CI, Flux applies rendered/', () => {
  const tmp = useTempDirs();
  const exampleDir = join(examples, 'flux');
  beforeEach(() => {
    requireBundle();
  });

  /** Runs render.sh the way CI does, in a copy of the example, with `llsd-render` on PATH. */
  function renderInCopy(): { dir: string; result: RunResult } {
    const root = tmp('llsd-flux-');
    const dir = copyDir(exampleDir, join(root, 'flux'));
    const bin = join(root, 'bin');
    mkdirSync(bin);
    symlinkSync(requireBundle(), join(bin, 'llsd-render'));
    const env: Record<string, string | undefined> = { ...process.env, PATH: [bin, dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':') };
    delete env.LLSD_RENDER;
    const result = run('sh', [join(dir, 'render.sh')], { cwd: root, baseEnv: env });
    return { dir, result };
  }

  it('render.sh (llsd-render build -o rendered app) reproduces the checked-in rendered/ byte for byte', () => {
    const { dir, result } = renderInCopy();
    expect(result.status, describeRun(result)).toBe(0);
    expect(result.stdout).toBe('');
    // The Secret is created outside Git, so the render warns and still succeeds.
    expect(result.stderr).toMatch(/warning: refers to the Secret "vllm-credentials", which is not in the input/);
    if (update) {
      rmSync(join(exampleDir, 'rendered'), { recursive: true, force: true });
      cpSync(join(dir, 'rendered'), join(exampleDir, 'rendered'), { recursive: true });
    }
    const fresh = snapshotDir(join(dir, 'rendered'));
    const checkedIn = snapshotDir(join(exampleDir, 'rendered'));
    expect([...fresh.keys()]).toEqual(['.llsd-render-output', 'llama/chat.yaml']);
    expect(changedFiles(checkedIn, fresh), 'files of examples/flux/rendered that differ from a fresh render (UPDATE_EXAMPLES=1 rewrites them)').toEqual([]);
  });

  // Issue 18: the README's check was `git diff --exit-code`, which misses the untracked file of a new LLSD.
  it('the README\'s CI check, run as written, fails when a new LLSD was not rendered and committed', () => {
    const command = readText(join(exampleDir, 'README.md'))
      .split('\n')
      .find((line) => line.includes('git status --porcelain'))
      ?.replace(/#.*$/, '')
      .trim();
    expect(command).toBe('git status --porcelain examples/flux/rendered; test -z "$(git status --porcelain examples/flux/rendered)"');
    const root = tmp('llsd-flux-git-');
    const dir = copyDir(exampleDir, join(root, 'examples', 'flux'));
    const git = (...args: string[]) => run('git', ['-c', 'user.email=ci@example.com', '-c', 'user.name=ci', ...args], { cwd: root });
    expect(git('init', '-q').status).toBe(0);
    expect(git('add', '.').status).toBe(0);
    expect(git('commit', '-qm', 'rendered').status).toBe(0);
    const check = () => run('sh', ['-c', command as string], { cwd: root });
    expect(check().status, 'nothing changed: the check passes').toBe(0);
    const llsd = readText(join(dir, 'app', 'llsd.yaml'));
    writeFileSync(join(dir, 'app', 'second.yaml'), llsd.replace(/^  name: chat$/m, '  name: second'));
    const env: Record<string, string | undefined> = { ...process.env, LLSD_RENDER: requireBundle() };
    expect(run('sh', [join(dir, 'render.sh')], { cwd: root, baseEnv: env }).status).toBe(0);
    expect(existsSync(join(dir, 'rendered', 'llama', 'second.yaml'))).toBe(true);
    const caught = check();
    expect(caught.status, 'the documented check catches it').not.toBe(0);
    expect(caught.stdout, 'and says which file, for the CI log').toContain('examples/flux/rendered/llama/second.yaml');
  });

  it('marks every object holding ${env.…} substitute-disabled, and leaves only well-formed Flux variables elsewhere', () => {
    const text = readText(join(exampleDir, 'rendered', 'llama', 'chat.yaml'));
    const objects = parseStream(text);
    expect(objects.map((o) => o.kind)).toEqual(['ConfigMap', 'ServiceAccount', 'Deployment', 'Service']);
    const [configMap] = generatedConfigMaps(objects, 'chat');
    expect(configMap).toBeDefined();
    expect(annotationsOf(configMap as K8sObject)[substituteAnnotation]).toBe('disabled');

    const substituted: string[] = [];
    for (const object of objects) {
      const own = JSON.stringify(object);
      if (!own.includes('${')) continue;
      if (annotationsOf(object)[substituteAnnotation] === 'disabled' || object.metadata.labels?.[substituteAnnotation] === 'disabled') continue;
      // Flux substitutes this object: each placeholder must be one Flux can parse.
      for (const p of placeholders(own)) {
        expect(p, `${object.kind}/${object.metadata.name}`).toMatch(fluxVariable);
        substituted.push(`${object.kind}:${p}`);
      }
    }
    // The LLSD's env value reaches the Deployment for Flux to fill in.
    expect(substituted).toEqual(['Deployment:${llama_log_level:=info}']);
  });

  it('has a Flux Kustomization with post-build substitution pointing at rendered/', () => {
    const docs = parseAllDocuments(readText(join(exampleDir, 'flux-kustomization.yaml'))).map((d) => d.toJS() as K8sObject & { spec: Record<string, unknown> });
    const kustomizations = docs.filter((d) => d.apiVersion === 'kustomize.toolkit.fluxcd.io/v1' && d.kind === 'Kustomization');
    expect(kustomizations.length).toBeGreaterThan(0);
    const fromGit = kustomizations.find((k) => (k.spec.sourceRef as { kind: string }).kind === 'GitRepository');
    expect(join(repoRoot, fromGit?.spec.path as string)).toBe(join(exampleDir, 'rendered'));
    for (const k of kustomizations) {
      expect((k.spec.postBuild as { substitute: Record<string, string> }).substitute).toHaveProperty('llama_log_level');
    }
    // render.sh is what the README tells CI to run.
    expect(readText(join(exampleDir, 'render.sh'))).toContain('build -o rendered app');
  });
});

describe('examples/v1alpha1-migration: convert, then build', () => {
  const dir = join(examples, 'v1alpha1-migration');

  it('convert prints the checked-in converted.yaml', () => {
    expectCheckedIn(join(dir, 'converted.yaml'), succeeded(llsdRender(['convert', 'v1alpha1'], dir)));
    const [llsd] = ofKind(parseStream(readText(join(dir, 'converted.yaml'))), 'LlamaStackDistribution');
    expect(llsd?.apiVersion).toBe('llamastack.io/v1alpha2');
    // Nothing needed the conversion-data annotation.
    expect(annotationsOf(llsd as K8sObject)).not.toHaveProperty('llamastack.io/conversion-data');
  });

  it('builds the converted package into the checked-in output, byte for byte what the v1alpha1 package renders', () => {
    const expectedPath = join(dir, 'expected', 'build.yaml');
    const converted = llsdRender(['build', 'converted.yaml'], dir);
    expectCheckedIn(expectedPath, succeeded(converted));
    expect(succeeded(llsdRender(['build', 'v1alpha1'], dir))).toBe(readText(expectedPath));
    const objects = parseStream(readText(expectedPath));
    // userConfig / overrideConfig: the user's ConfigMap is mounted, nothing is generated.
    expect(objects.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual([
      'ConfigMap/legacy-run-config',
      'ServiceAccount/legacy-sa',
      'Deployment/legacy',
      'Service/legacy-service',
    ]);
  });

  it('converts back to the original v1alpha1 LLSD', () => {
    const back = parseStream(succeeded(llsdRender(['convert', '--to', 'v1alpha1', 'converted.yaml'], dir)));
    expect(back).toEqual(parseStream(readText(join(dir, 'v1alpha1', 'llsd.yaml'))));
  });
});

describe('examples/postgres: postgres-demo with PostgreSQL storage', () => {
  const tmp = useTempDirs();
  const dir = join(examples, 'postgres');

  it('builds into the checked-in output', () => {
    const result = llsdRender(['build', 'app'], dir);
    expectCheckedIn(join(dir, 'expected', 'build.yaml'), succeeded(result));
    const objects = parseStream(result.stdout);
    const [configMap] = generatedConfigMaps(objects, 'pg');
    const config = (configMap?.data as Record<string, string>)['config.yaml'] as string;
    expect(config).toContain('type: kv_postgres');
    expect(config).toContain('type: sql_postgres');
    expect(config).toContain('password: ${env.LLSD_STORAGE_SQL_PASSWORD}');
    // The Secret's values are passed through in the Secret only, never into the config.
    expect(config).not.toContain('replace-me');
    expect(annotationsOf(configMap as K8sObject)[substituteAnnotation]).toBe('disabled');
    const [deployment] = ofKind(objects, 'Deployment');
    expect(JSON.stringify(deployment)).toContain('"secretKeyRef":{"name":"llama-postgres","key":"password"}');
  });

  it('fails when INFERENCE_MODEL is not set, as the server would', () => {
    const copy = copyDir(join(dir, 'app'), join(tmp('llsd-pg-'), 'app'));
    const llsd = readText(join(copy, 'llsd.yaml'));
    writeFileSync(join(copy, 'llsd.yaml'), llsd.replace(/ {8}- name: INFERENCE_MODEL\n\s+value: .*\n/, ''));
    const result = llsdRender(['build', copy], dir);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('set INFERENCE_MODEL in `spec.workload.overrides.env`');
  });
});

describe('examples/multiple-providers: two inference providers and a safety provider', () => {
  const dir = join(examples, 'multiple-providers');

  it('builds into the checked-in output', () => {
    const out = succeeded(llsdRender(['build', 'app'], dir));
    expectCheckedIn(join(dir, 'expected', 'build.yaml'), out);
    const [configMap] = generatedConfigMaps(parseStream(out), 'multi');
    const config = (configMap?.data as Record<string, string>)['config.yaml'] as string;
    expect(config).toMatch(/- provider_id: primary\n\s+provider_type: remote::vllm/);
    expect(config).toMatch(/- provider_id: fallback\n\s+provider_type: remote::ollama/);
    expect(config).toMatch(/- provider_id: guard\n\s+provider_type: inline::llama-guard/);
    expect(config).toMatch(/- model_id: meta-llama\/Llama-3.1-8B-Instruct\n\s+provider_id: primary/);
    expect(config).toMatch(/- model_id: llama3.2:3b\n\s+provider_id: fallback/);
    expect(config).toMatch(/- shield_id: meta-llama\/Llama-Guard-3-1B\n\s+provider_id: guard/);
  });

  it('renders the same objects under the real kpt fn eval --exec (the LLSD kept as local-config)', () => {
    const kpt = requireTool('kpt');
    const before = snapshotDir(join(dir, 'app'));
    const result = run(kpt, ['fn', 'eval', 'app', '--exec', requireBundle(), '-o', 'unwrap'], { cwd: dir, timeoutMs: 60_000 });
    expect(result.status, describeRun(result)).toBe(0);
    expect(changedFiles(before, snapshotDir(join(dir, 'app')))).toEqual([]);
    const fromKpt = parseStream(result.stdout);
    const [llsd] = ofKind(fromKpt, 'LlamaStackDistribution');
    expect(annotationsOf(llsd as K8sObject)['config.kubernetes.io/local-config']).toBe('true');
    const applied = fromKpt.filter((o) => o.kind !== 'LlamaStackDistribution');
    const sortKey = (o: K8sObject) => `${o.kind}/${o.metadata.name}`;
    const sorted = (list: K8sObject[]) => [...list].sort((a, b) => sortKey(a).localeCompare(sortKey(b)));
    expect(sorted(applied)).toEqual(sorted(parseStream(readText(join(dir, 'expected', 'build.yaml')))));
  });
});

describe('examples/rhoai: an OGXServer on the rh distribution through kpt (OpenShift AI / Open Data Hub)', () => {
  const tmp = useTempDirs();
  const dir = join(examples, 'rhoai');

  it('`kpt fn render --allow-exec -o unwrap` in the package: the package is not changed, the output is checked in', () => {
    const before = snapshotDir(dir);
    const out = succeeded(run(requireTool('kpt'), ['fn', 'render', '--allow-exec', '-o', 'unwrap'], { cwd: dir, timeoutMs: 60_000 }));
    expect(changedFiles(before, snapshotDir(dir))).toEqual([]);
    expectCheckedIn(join(examples, 'expected', 'kpt-rhoai.yaml'), out);
    const objects = parseStream(out);
    const [deployment] = ofKind(objects, 'Deployment');
    const container = (deployment?.spec as { template: { spec: { containers: Array<Record<string, unknown>> } } }).template.spec.containers[0] ?? {};
    // The image's entrypoint reads RUN_CONFIG_PATH and handles `<VAR>_FILE`: no command replaces it.
    expect(container.image).toBe('quay.io/rhoai/odh-ogx-core-rhel9:rhoai-3.5');
    expect(container.command).toBeUndefined();
    const env = container.env as Array<{ name: string; value?: string; valueFrom?: unknown }>;
    expect(env.find((e) => e.name === 'RUN_CONFIG_PATH')?.value).toMatch(/\/config\.yaml$/);
    expect(env.find((e) => e.name === 'POSTGRES_PASSWORD')?.valueFrom).toEqual({ secretKeyRef: { name: 'ogx-postgres', key: 'password' } });
    const [configMap] = generatedConfigMaps(objects, 'assistant');
    const config = (configMap?.data as Record<string, string>)['config.yaml'] as string;
    expect(config).toContain('type: kv_postgres');
    expect(config).toContain('base_url: http://granite.rhoai-models.svc.cluster.local:8080/v1');
  });

  it('its results: the base\'s ignored keys once as an info, the Secrets not in the package as warnings, nothing else', () => {
    // validate prints what build would, infos included (on stdout).
    const result = llsdRender(['validate', 'apps'], dir);
    succeeded(result);
    const lines = `${result.stdout}\n${result.stderr}`.split('\n').filter((l) => l.trim() !== '');
    const warnings = lines.filter((l) => / warning: /.test(l));
    expect(lines.filter((l) => / error: /.test(l)), result.stderr).toEqual([]);
    expect(warnings.length, result.stderr).toBeGreaterThan(0);
    for (const w of warnings) expect(w).toMatch(/Secret "(vllm-credentials|ogx-postgres)"/);
    const base = lines.filter((l) => / info: /.test(l) && /base config of "rh"/.test(l));
    expect(base, result.stderr).toHaveLength(1);
    expect(base[0]).toContain('persistence.agent_state');
  });

  it('without POSTGRES_DB the render fails naming it, as OGX would refuse to start', () => {
    const copy = copyDir(join(dir, 'apps'), join(tmp('llsd-rhoai-'), 'apps'));
    const server = readText(join(copy, 'ogxserver.yaml'));
    writeFileSync(join(copy, 'ogxserver.yaml'), server.replace(/ {8}- name: POSTGRES_DB\n\s+value: .*\n/, ''));
    const result = llsdRender(['build', copy], dir);
    expect(result.status, describeRun(result)).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('POSTGRES_DB');
    expect(result.stderr).toContain('spec.workload.overrides.env');
  });
});

describe('examples/ogx-external-access: an OGXServer with externalAccess through kpt, with the ingress controller\'s options', () => {
  const dir = join(examples, 'ogx-external-access');

  it('`kpt fn render --allow-exec -o unwrap` in the package: the Ingress has the host and TLS Secret, the policy admits ingress-nginx', () => {
    const before = snapshotDir(dir);
    const result = run(requireTool('kpt'), ['fn', 'render', '--allow-exec', '-o', 'unwrap'], { cwd: dir, timeoutMs: 60_000 });
    const out = succeeded(result);
    expect(changedFiles(before, snapshotDir(dir))).toEqual([]);
    expectCheckedIn(join(examples, 'expected', 'kpt-ogx-external-access.yaml'), out);
    // The Kptfile's options reached the function: no warning about the ingress controller.
    expect(result.stderr).not.toContain('network-policy-ingress-peer');
    const objects = parseStream(out);
    const [ingress] = ofKind(objects, 'Ingress');
    expect(ingress?.metadata.name).toBe('public-ingress');
    expect(ingress?.spec).toEqual({
      ingressClassName: 'nginx',
      tls: [{ hosts: ['ogx.example.com'], secretName: 'ogx-example-com-tls' }],
      rules: [
        {
          host: 'ogx.example.com',
          http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'public-service', port: { number: 8321 } } } }] },
        },
      ],
    });
    const [policy] = ofKind(objects, 'NetworkPolicy');
    const [api] = (policy?.spec as { ingress: Array<{ from: unknown[]; ports: unknown[] }> }).ingress;
    expect(api?.from).toContainEqual({ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } } });
    expect(api?.ports).toEqual([{ protocol: 'TCP', port: 8321 }]);
  });

  it('without the Kptfile\'s options (`llsd-render validate apps`): a warning that the NetworkPolicy may shut out the ingress controller', () => {
    const result = llsdRender(['validate', 'apps'], dir);
    succeeded(result);
    const warnings = `${result.stdout}\n${result.stderr}`.split('\n').filter((l) => / warning: /.test(l));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('spec.network.externalAccess.enabled');
    expect(warnings[0]).toContain('`ingressControllerNamespace`');
  });
});

describe('examples/praxis: an OGXServer in Praxis mode through kpt (Tech Preview)', () => {
  const dir = join(examples, 'praxis');

  it('`kpt fn render --allow-exec -o unwrap` in the package: the package is not changed, the output is checked in', () => {
    const before = snapshotDir(dir);
    const out = succeeded(run(requireTool('kpt'), ['fn', 'render', '--allow-exec', '-o', 'unwrap'], { cwd: dir, timeoutMs: 60_000 }));
    expect(changedFiles(before, snapshotDir(dir))).toEqual([]);
    expectCheckedIn(join(examples, 'expected', 'kpt-praxis.yaml'), out);
    const objects = parseStream(out);
    expect(ofKind(objects, 'Ingress')).toEqual([]);
    const [job] = ofKind(objects, 'Job');
    expect(job?.metadata.name).toMatch(/^assistant-praxis-migration-[0-9a-f]{16}$/);
    const pod = (job?.spec as { template: { spec: { containers: Array<Record<string, unknown>> } } }).template.spec;
    const env = pod.containers[0]?.env as Array<{ name: string; value?: string; valueFrom?: unknown }>;
    const target = { name: 'PRAXIS_DATABASE_URL', valueFrom: { secretKeyRef: { name: 'praxis-db', key: 'url' } } };
    expect(env.find((e) => e.name === 'PRAXIS_DATABASE_URL')).toEqual(target);
    const [configMap] = generatedConfigMaps(objects, 'assistant');
    const config = (configMap?.data as Record<string, string>)['config.yaml'] as string;
    expect(config).toContain('type: upstream_header');
    expect(config).toContain('mode: multi');
  });

  it('its results: Tech Preview, the Secrets not in the package, the responses provider kept; no error', () => {
    const result = llsdRender(['validate', 'apps'], dir);
    succeeded(result);
    const lines = `${result.stdout}\n${result.stderr}`.split('\n').filter((l) => l.trim() !== '');
    expect(lines.filter((l) => / error: /.test(l)), result.stderr).toEqual([]);
    const warnings = lines.filter((l) => / warning: /.test(l));
    expect(warnings.some((w) => w.includes('[tech-preview]')), result.stderr).toBe(true);
    for (const w of warnings) expect(w).toMatch(/\[tech-preview\]|Secret "(vllm-credentials|ogx-postgres|praxis-db)"|\[api-not-listed\]/);
  });
});

describe('examples/kustomize/container: the container-function variant of transformer/', () => {
  // Running it needs the image (test/e2e/container.test.ts builds and runs it); here: same
  // inputs as transformer/, only the function annotation differs.
  const dir = join(examples, 'kustomize', 'container');
  const transformer = join(examples, 'kustomize', 'transformer');

  it('has the same LLSD and Secret as transformer/ and names the container image', () => {
    expect(readText(join(dir, 'llsd.yaml'))).toBe(readText(join(transformer, 'llsd.yaml')));
    expect(readText(join(dir, 'secret.yaml'))).toBe(readText(join(transformer, 'secret.yaml')));
    const [config] = parseStream(readText(join(dir, 'render-config.yaml')));
    const [exec] = parseStream(readText(join(transformer, 'render-config.yaml')));
    expect(annotationsOf(config as K8sObject)['config.kubernetes.io/function']).toBe(`container:\n  image: ${imageName}\n`);
    expect(config?.spec).toEqual(exec?.spec);
    const kustomization = parseAllDocuments(readText(join(dir, 'kustomization.yaml')))[0]?.toJS() as Record<string, unknown>;
    expect(kustomization.transformers).toEqual(['render-config.yaml']);
    expect(kustomization.resources).toEqual(['llsd.yaml', 'secret.yaml']);
  });
});

describe('the OGXServer examples (kpt-ogx, kustomize/ogx-*, argocd/ogx-app): one server, written once per host', () => {
  const reference = join(examples, 'kpt-ogx', 'apps', 'ogxserver.yaml');
  const copies = [
    join(examples, 'kustomize', 'ogx-transformer', 'ogxserver.yaml'),
    join(examples, 'kustomize', 'ogx-generator', 'ogxserver.yaml'),
    join(examples, 'argocd', 'ogx-app', 'ogxserver.yaml'),
  ];
  const withoutFunction = (o: K8sObject): K8sObject => {
    const { 'config.kubernetes.io/function': _fn, ...rest } = annotationsOf(o);
    return { ...o, metadata: { ...o.metadata, ...(Object.keys(rest).length > 0 ? { annotations: rest } : { annotations: undefined }) } };
  };

  it('every copy is the kpt package\'s OGXServer, except for the generator\'s function annotation', () => {
    const [server] = parseStream(readText(reference));
    expect(server?.apiVersion).toBe('ogx.io/v1beta1');
    expect(server?.kind).toBe('OGXServer');
    for (const copy of copies) {
      const objects = parseStream(readText(copy));
      expect(objects, relative(repoRoot, copy)).toHaveLength(1);
      expect(JSON.parse(JSON.stringify(withoutFunction(objects[0] as K8sObject))), relative(repoRoot, copy)).toEqual(server);
    }
  });

  it('the kustomize ogx- variants pass the same Secret and function as the LLSD ones', () => {
    const kustomize = join(examples, 'kustomize');
    for (const variant of ['transformer', 'generator'])
      expect(readText(join(kustomize, `ogx-${variant}`, 'secret.yaml'))).toBe(readText(join(kustomize, variant, 'secret.yaml')));
    expect(readText(join(kustomize, 'ogx-transformer', 'render-config.yaml'))).toBe(readText(join(kustomize, 'transformer', 'render-config.yaml')));
    const [generator] = parseStream(readText(join(kustomize, 'ogx-generator', 'ogxserver.yaml')));
    const [llsdGenerator] = parseStream(readText(join(kustomize, 'generator', 'llsd.yaml')));
    expect(annotationsOf(generator as K8sObject)['config.kubernetes.io/function']).toBe(
      annotationsOf(llsdGenerator as K8sObject)['config.kubernetes.io/function'],
    );
  });
});

// The other examples' expected output, checked in under examples/expected/ (outside the
// packages, so no tool reads it as input) and rendered with the real tool
// where the machine has one (their behaviour is asserted in quickstart's README command,
// kpt.test.ts, kustomize.test.ts and argocd.test.ts).
describe('checked-in output of quickstart, kpt, kustomize and the Argo CD app (LLSD and OGXServer)', () => {
  beforeEach(() => {
    requireBundle();
  });

  it('examples/quickstart: `llsd-render build examples/quickstart`', () => {
    const out = succeeded(llsdRender(['build', 'examples/quickstart'], repoRoot));
    expectCheckedIn(join(examples, 'expected', 'quickstart.yaml'), out);
  });

  it('examples/kpt: `kpt fn render --allow-exec -o unwrap` in the package (the package is not changed)', () => {
    const dir = join(examples, 'kpt');
    const before = snapshotDir(dir);
    const out = succeeded(run(requireTool('kpt'), ['fn', 'render', '--allow-exec', '-o', 'unwrap'], { cwd: dir }));
    expect(changedFiles(before, snapshotDir(dir))).toEqual([]);
    expectCheckedIn(join(examples, 'expected', 'kpt.yaml'), out);
  });

  it('examples/kpt-ogx: `kpt fn render --allow-exec -o unwrap` in the package (the package is not changed)', () => {
    const dir = join(examples, 'kpt-ogx');
    const before = snapshotDir(dir);
    const out = succeeded(run(requireTool('kpt'), ['fn', 'render', '--allow-exec', '-o', 'unwrap'], { cwd: dir }));
    expect(changedFiles(before, snapshotDir(dir))).toEqual([]);
    expectCheckedIn(join(examples, 'expected', 'kpt-ogx.yaml'), out);
  });

  for (const variant of ['transformer', 'generator', 'ogx-transformer', 'ogx-generator'] as const) {
    it(`examples/kustomize/${variant}: standalone kustomize build --enable-alpha-plugins --enable-exec`, () => {
      const out = succeeded(run(requireKustomize(), ['build', '--enable-alpha-plugins', '--enable-exec', `examples/kustomize/${variant}`], { cwd: repoRoot }));
      expectCheckedIn(join(examples, 'expected', `kustomize-${variant}.yaml`), out);
    });
  }

  it('examples/argocd/app: what the plugin prints (`llsd-render build .` in the app directory)', () => {
    const out = succeeded(llsdRender(['build', '.'], join(examples, 'argocd', 'app')));
    expectCheckedIn(join(examples, 'expected', 'argocd-app.yaml'), out);
  });

  it('examples/argocd/ogx-app: what the plugin prints (`llsd-render build .` in the app directory)', () => {
    const out = succeeded(llsdRender(['build', '.'], join(examples, 'argocd', 'ogx-app')));
    expectCheckedIn(join(examples, 'expected', 'argocd-ogx-app.yaml'), out);
  });
});
