// An OGXServer through the commands a user runs (the new-user probe found `validate` refusing an
// OGXServer-only directory, and KRM mode failing on any OGXServer item without kustomize's id).
import { describe, expect, it } from 'vitest';
import { LOCAL_CONFIG, parseResourceList, quickstartText, resourceList, run, tempDir, writeTree } from './run.js';

const server = `apiVersion: ogx.io/v1beta1
kind: OGXServer
metadata:
  name: chat
  namespace: ai
spec:
  distribution:
    name: starter
  providers:
    inference:
      remote:
        vllm:
          - endpoint: http://vllm.ai.svc:8000/v1
            apiToken: {name: vllm-creds, key: token}
  resources:
    models:
      - name: granite
`;
const secret = `apiVersion: v1
kind: Secret
metadata:
  name: vllm-creds
  namespace: ai
stringData:
  token: not-a-number-SECRETMARK
`;

describe('an OGXServer through the commands', () => {
  it('validate on a directory of OGXServers checks them: exit 0, the summary on stdout', () => {
    const dir = writeTree(tempDir(), { 'server.yaml': `${server}---\n${secret}` });
    const r = run(['validate', dir]);
    expect(r.stderr).not.toContain('nothing was validated');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/chat: info: generated config\.yaml with 1 provider from the OGXServer .* for OGX \d+\.\d+\.\d+/);
  });

  it('KRM mode (a ResourceList as kpt sends it, no kustomize id): renders, and keeps the OGXServer marked local-config', () => {
    const r = run([], { input: resourceList([server, secret]) });
    expect(r.status, r.stderr).toBe(0);
    const { items } = parseResourceList(r.stdout);
    const kinds = items.map((i) => i.kind);
    expect(kinds).toEqual(expect.arrayContaining(['OGXServer', 'Secret', 'ConfigMap', 'Deployment', 'Service', 'ServiceMonitor']));
    const kept = items.find((i) => i.kind === 'OGXServer') as { metadata: { annotations?: Record<string, string> } };
    expect(kept.metadata.annotations?.[LOCAL_CONFIG]).toBe('true');
    // The Secret passes through as it came; nothing generated, and no result, holds its value.
    expect(JSON.stringify(items.filter((i) => i.kind !== 'Secret'))).not.toContain('SECRETMARK');
    expect(r.stderr).not.toContain('SECRETMARK');
  });

  it('build never applies the OGXServer itself', () => {
    const dir = writeTree(tempDir(), { 'server.yaml': `${server}---\n${secret}` });
    const r = run(['build', dir]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('kind: OGXServer');
    expect(r.stdout).toContain('name: chat-service');
  });

  // New-user probe: these errors of the generated config pointed at the item, not the field.
  it('a config error from network.port or a model type points at that OGXServer field', () => {
    const port = writeTree(tempDir(), { 'server.yaml': `${server.replace('spec:\n', 'spec:\n  network: {port: 80}\n')}---\n${secret}` });
    const r = run(['build', port]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      // The release's schema refuses it (ge=1024) before any startup rule would: its words are the server's.
      /^\S*server\.yaml:\d+: ai\/chat: spec\.network\.port: the generated config\.yaml does not fit the schema of OGX [\d.]+: `server\.port` must be at least 1024, not 80$/m,
    );
    const type = writeTree(tempDir(), { 'server.yaml': `${server.replace('- name: granite', '- name: granite\n        modelType: chat')}---\n${secret}` });
    const modelType = /^\S*server\.yaml:\d+: ai\/chat: spec\.resources\.models\[0\]\.modelType: .*must be one of `llm`, `embedding`, `rerank`, not "chat"$/m;
    expect(run(['build', type]).stderr).toMatch(modelType);
  });

  // New-user probe: an LLSD with these gets two warnings, the same OGXServer got none.
  it('more than one pod with state on each pod, or with a ReadWriteOnce volume: a warning each, with what an OGXServer can do instead', () => {
    const local = writeTree(tempDir(), { 'server.yaml': `${server.replace('spec:\n', 'spec:\n  workload: {replicas: 3}\n')}---\n${secret}` });
    const r = run(['build', local]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /spec\.workload\.replicas: warning: runs 3 pods, but .* keeps state on each pod's own volume .*Set `spec\.storage\.kv` to redis and give a PostgreSQL SQL store through `spec\.overrideConfig`/,
    );
    const volume = writeTree(tempDir(), {
      'server.yaml': `${server.replace('spec:\n', 'spec:\n  workload: {replicas: 2, storage: {size: 5Gi}}\n')}---\n${secret}`,
    });
    expect(run(['build', volume]).stderr).toMatch(/spec\.workload\.replicas: warning: runs 2 pods, but `workload\.storage` is a ReadWriteOnce volume/);
  });

  // Attacker probe: these rendered a Deployment the API server refuses, with exit 0 (an LLSD too).
  it('overrides.volumes named like a volume llsd-render mounts, a mount of no volume, two mounts at one path: an error each, at the field', () => {
    const overrides =
      'spec:\n  workload:\n    overrides:\n      volumes: [{name: user-config, emptyDir: {}}]\n      volumeMounts: [{name: nope, mountPath: /etc/ogx/}]\n';
    const dir = writeTree(tempDir(), { 'server.yaml': `${server.replace('spec:\n', overrides)}---\n${secret}` });
    const r = run(['build', dir]);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /: spec\.workload\.overrides\.volumes\[0\]\.name: is the name of llsd-render's own volume "user-config" \(it mounts ogx-storage, user-config\)/,
    );
    expect(r.stderr).toMatch(/: spec\.workload\.overrides\.volumeMounts\[0\]\.name: names no volume of the pod/);
    expect(r.stderr).toMatch(/: spec\.workload\.overrides\.volumeMounts\[0\]\.mountPath: is a path llsd-render mounts already/);
    // Attacker probe round 5: compared as strings, `/etc/ogx` (no slash) and `//etc/./ogx` got through.
    for (const path of ['/etc/ogx', '//etc/./ogx']) {
      const same = writeTree(tempDir(), {
        'server.yaml': `${server.replace(
          'spec:\n',
          `spec:\n  workload:\n    overrides:\n      volumes: [{name: extra, emptyDir: {}}]\n      volumeMounts: [{name: extra, mountPath: "${path}"}]\n`,
        )}---\n${secret}`,
      });
      expect(run(['build', same]).stderr).toMatch(/: spec\.workload\.overrides\.volumeMounts\[0\]\.mountPath: is a path llsd-render mounts already/);
    }
    const llsd = writeTree(tempDir(), { 'llsd.yaml': `${quickstartText()}  workload:\n    overrides:\n      volumeMounts: [{name: y, mountPath: /tmp}]\n` });
    expect(run(['build', llsd]).stderr).toMatch(/llama\/quickstart: spec\.workload\.overrides\.volumeMounts\[0\]\.name: names no volume of the pod/);
  });

  // Attacker probe: in settings it gave a wrong message, in labels it was dropped silently.
  it('a __proto__ key anywhere in an OGXServer is refused at its path, as in an LLSD', () => {
    const dir = writeTree(tempDir(), { 'server.yaml': `${server.replace('  namespace: ai\n', '  namespace: ai\n  labels: {__proto__: x}\n')}---\n${secret}` });
    const r = run(['build', dir]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/ai\/chat: metadata\.labels\.__proto__: is not a key llsd-render can carry \(JavaScript reserves it\)/);
  });

  // Property tests: these errors (the base's models naming the replaced providers) had no field path.
  it('a base model left naming a provider the spec replaced points at spec.providers.inference', () => {
    const dir = writeTree(tempDir(), {
      'server.yaml':
        server.replace('name: starter', 'name: postgres-demo').replace(/  resources:\n    models:\n      - name: granite\n/, '') + `---\n${secret}`,
    });
    const r = run(['build', dir]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      /ai\/chat: spec\.providers\.inference: the generated config\.yaml would stop OGX [\d.]+ at startup: `registered_resources\.models\[\d\]\.provider_id` names the inference provider "vllm-inference", which is not configured/,
    );
  });

  // Attacker probe round 5: mode none (no providers, resources or storage) skipped the scaling checks.
  it('an autoscaler whose minimum (from replicas) is above its maximum is an error in every config mode', () => {
    const dir = writeTree(tempDir(), {
      'server.yaml':
        'apiVersion: ogx.io/v1beta1\nkind: OGXServer\nmetadata: {name: chat, namespace: ai}\nspec:\n  distribution: {name: starter}\n  workload: {replicas: ' +
          '2, autoscaling: {maxReplicas: 1}}\n',
    });
    const r = run(['build', dir]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/ai\/chat: spec\.workload\.replicas: is 2, above `autoscaling\.maxReplicas` \(1\)/);
  });

  it('adoption annotations that adopt nothing get a warning: a value that is no LLSD name, adopt-storage without storage', () => {
    const annotated = (annotations: string, spec = '') =>
      run([
        'build',
        writeTree(tempDir(), {
          'server.yaml': `${server.replace('  namespace: ai\n', `  namespace: ai\n  annotations: {${annotations}}\n`).replace('spec:\n', `spec:\n${spec}`)}` +
            `---\n${secret}`,
        }),
      ]);
    const typo = annotated('ogx.io/adopt-storage: Old', '  workload: {storage: {}}\n');
    expect(typo.status, typo.stderr).toBe(0);
    expect(typo.stderr).toMatch(/metadata\.annotations\["ogx\.io\/adopt-storage"\]: warning: is not the name of an LLSD .* so nothing is adopted/);
    const noStorage = annotated('ogx.io/adopt-storage: old');
    expect(noStorage.stderr).toMatch(
      /metadata\.annotations\["ogx\.io\/adopt-storage"\]: warning: has no effect without `spec\.workload\.storage`: .*"old-pvc" is not in the output/,
    );
    expect(annotated('ogx.io/adopt-storage: old', '  workload: {storage: {}}\n').stderr).not.toContain('adopt-storage');
  });

  // Attacker probe round 5: kpt failed ("already exists") and llsd-render said nothing.
  it('KRM mode: two servers of one name in two namespaces of one file, which would write one output file, are an error', () => {
    const at = (namespace: string) =>
      server
        .replace(
          '  namespace: ai\n',
          `  namespace: ${namespace}\n  annotations:\n    config.kubernetes.io/path: apps/a.yaml\n    internal.config.kubernetes.io/path: apps/a.yaml\n`,
        )
        .replace(/  providers:[\s\S]*$/, '  storage: {}\n');
    const r = run([], { input: resourceList([at('one'), at('two')]) });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      'writes its objects to "apps/chat.generated.yaml" (the `outputPath` option "{dir}/{name}.generated.yaml"), as OGXServer "one/chat" does, and kpt ' +
        'refuses two objects at one path and index',
    );
    expect(parseResourceList(r.stdout).items.map((i) => i.kind)).toEqual(['OGXServer', 'OGXServer']);
  });

  // Attacker probe round 5: convert printed two OGXServers of one name, with exit 0.
  it('convert --to ogx.io/v1beta1 refuses an LLSD that would become a document the output already has', () => {
    const dir = writeTree(tempDir(), {
      'a.yaml': quickstartText(),
      'b.yaml': server.replace('name: chat', 'name: quickstart-ogx').replace('namespace: ai', 'namespace: llama'),
    });
    const r = run(['convert', '--to', 'ogx.io/v1beta1', dir]);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/llama\/quickstart: metadata\.name: becomes OGXServer "quickstart-ogx", which another document of the output already is/);
  });
});
