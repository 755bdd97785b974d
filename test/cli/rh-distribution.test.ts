// The `rh` distribution through the built CLI (issue 27, scope 3): an OGXServer and an LLSD on it,
// with one vLLM provider and model and the PostgreSQL env its storage reads, render with only info
// results; without POSTGRES_DB the render is refused with an error naming it.
import { describe, expect, it } from 'vitest';
import { parseResourceList, parseStream, resourceList, run, tempDir, writeTree, type KrmObject } from './run.js';

const postgresEnv = (without: string[] = []): string =>
  [
    '- {name: POSTGRES_HOST, value: pg.ai.svc}',
    '- {name: POSTGRES_PORT, value: "5432"}',
    '- {name: POSTGRES_DB, value: ogx}',
    '- {name: POSTGRES_USER, value: ogx}',
    '- name: POSTGRES_PASSWORD\n  valueFrom: {secretKeyRef: {name: pg-creds, key: password}}',
  ]
    .filter((line) => !without.some((name) => line.includes(`name: ${name},`) || line.includes(`name: ${name}\n`)))
    .join('\n');
const indent = (text: string, by: string): string => text.split('\n').map((l) => `${by}${l}`).join('\n');

const server = (without: string[] = []): string => `apiVersion: ogx.io/v1beta1
kind: OGXServer
metadata:
  name: chat
  namespace: ai
spec:
  distribution:
    name: rh
  providers:
    inference:
      remote:
        vllm:
          - endpoint: http://vllm.ai.svc:8000/v1
            apiToken: {name: vllm-creds, key: token}
  resources:
    models:
      - name: granite
  workload:
    overrides:
      env:
${indent(postgresEnv(without), '        ')}
`;

const llsd = (without: string[] = []): string => `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata:
  name: assistant
  namespace: ai
spec:
  distribution:
    name: rh
  providers:
    inference:
      - provider: vllm
        endpoint: http://vllm.ai.svc:8000/v1
        apiKey: {secretKeyRef: {name: vllm-creds, key: token}}
  resources:
    models: [granite]
  workload:
    overrides:
      env:
${indent(postgresEnv(without), '        ')}
`;

const secrets = [
  'apiVersion: v1\nkind: Secret\nmetadata: {name: vllm-creds, namespace: ai}\nstringData: {token: VLLM-SECRETMARK}\n',
  'apiVersion: v1\nkind: Secret\nmetadata: {name: pg-creds, namespace: ai}\nstringData: {password: PG-SECRETMARK}\n',
];

const apis = [
  { api: 'OGXServer', doc: server, name: 'chat', summary: /^generated config\.yaml with 1 provider from the OGXServer .* for OGX 1\.2\.4 \(distribution rh, / },
  { api: 'LLSD', doc: llsd, name: 'assistant', summary: /^generated config\.yaml with 1 provider from the LLSD .* for OGX 1\.2\.4 \(distribution rh, / },
];

describe.each(apis)('an $api on rh through the CLI', ({ doc, name, summary }) => {
  it('KRM mode: exit 0, only info results, and a Deployment that keeps the image entrypoint', () => {
    const r = run([], { input: resourceList([doc(), ...secrets]) });
    expect(r.status, r.stderr).toBe(0);
    const { items, results } = parseResourceList(r.stdout);
    expect(results.filter((x) => x.severity !== 'info').map((x) => x.message)).toEqual([]);
    expect(results.map((x) => x.message)).toContainEqual(expect.stringMatching(summary));
    const deployment = items.find((i) => i.kind === 'Deployment') as KrmObject & { spec: any };
    const container = deployment.spec.template.spec.containers[0] as { image: string; command?: unknown; env: Array<{ name: string; value?: string }> };
    expect(container.image).toBe('quay.io/rhoai/odh-ogx-core-rhel9:rhoai-3.5');
    expect(container.command).toBeUndefined();
    expect(container.env.find((e) => e.name === 'RUN_CONFIG_PATH')?.value).toMatch(/^\/etc\/[a-z-]+\/config\.yaml$/);
    expect(container.env.find((e) => e.name === 'POSTGRES_DB')?.value).toBe('ogx');
    // The Secrets pass through as they came; nothing generated holds their values.
    expect(JSON.stringify(items.filter((i) => i.kind !== 'Secret'))).not.toContain('SECRETMARK');
  });

  it('validate without POSTGRES_DB: exit 1, an error naming POSTGRES_DB and where to set it, none for the variables that are set', () => {
    const dir = writeTree(tempDir(), { 'app.yaml': [doc(['POSTGRES_DB']), ...secrets].join('---\n') });
    const r = run(['validate', dir]);
    expect(r.status, r.stdout).toBe(1);
    const errors = r.stderr.split('\n').filter((line) => line.includes(`ai/${name}:`));
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((line) => line.includes('POSTGRES_DB'))).toBe(true);
    expect(errors.join('\n')).toContain('set POSTGRES_DB in `spec.workload.overrides.env`');
    expect(errors.join('\n')).not.toMatch(/POSTGRES_(USER|HOST|PASSWORD)/);
    expect(r.stderr + r.stdout).not.toContain('SECRETMARK');
  });
});

// A CR that names the image RHOAI ships instead of the distribution (`image:
// quay.io/rhoai/odh-ogx-core-rhel9:rhoai-3.5`, whose tag names no release) is the catalog's rh at
// 1.2.4: rendered offline (no registry), with rh's image facts, as `name: rh` is.
describe.each(apis)('an $api naming the rh image by its RHOAI tag', ({ doc, name }) => {
  const byImage = (text: string) => text.replace('name: rh', 'image: quay.io/rhoai/odh-ogx-core-rhel9:rhoai-3.5');
  const build = (text: string) => run(['build', '--offline', writeTree(tempDir(), { 'app.yaml': [text, ...secrets].join('---\n') })]);

  it('renders offline on the catalog facts of rh 1.2.4: the entrypoint kept, the rh user and config path', () => {
    const r = build(byImage(doc()));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const deployment = parseStream(r.stdout).find((i) => i.kind === 'Deployment') as KrmObject & { spec: any };
    expect(deployment.metadata.name).toBe(name);
    type Container = { image: string; command?: unknown; env: Array<{ name: string }> };
    const pod = deployment.spec.template.spec as { securityContext?: { fsGroup?: number }; containers: Container[] };
    expect(pod.containers[0]?.image).toBe('quay.io/rhoai/odh-ogx-core-rhel9:rhoai-3.5');
    expect(pod.containers[0]?.command).toBeUndefined();
    expect(pod.securityContext?.fsGroup).toBe(1001);
    expect(pod.containers[0]?.env.map((e) => e.name)).toContain('RUN_CONFIG_PATH');
    const summary = run(['validate', '--offline', writeTree(tempDir(), { 'app.yaml': [byImage(doc()), ...secrets].join('---\n') })]);
    expect(summary.stdout).toMatch(/for OGX 1\.2\.4 \(distribution rh, image quay\.io\/rhoai\/odh-ogx-core-rhel9:rhoai-3\.5\)/);
  });

  it('without POSTGRES_DB, refused as `name: rh` is', () => {
    const r = build(byImage(doc(['POSTGRES_DB'])));
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('set POSTGRES_DB in `spec.workload.overrides.env`');
  });
});
