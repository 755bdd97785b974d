// Releases by line through the commands (issue 27, scopes 4 and 5): the forms a release is written
// in, a patch release a named distribution lacks (an info, the image at the asked release), a
// release newer than every catalog release (a warning), and an OGXServer on a RenderConfig distribution.
import { describe, expect, it } from 'vitest';
import { parseStream, run, tempDir, writeTree, type RunResult } from './run.js';
import type { KrmObject } from '../../src/krm/item.js';

const llsd = (release: string): string => `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata:
  name: chat
  namespace: ai
  annotations:
    llamastack.io/release: "${release}"
spec:
  distribution:
    name: starter
`;

const ogxServer = (distribution: string, annotations = ''): string => `apiVersion: ogx.io/v1beta1
kind: OGXServer
metadata:
  name: chat
  namespace: ai
${annotations}spec:
  distribution:
    name: ${distribution}
  providers:
    inference:
      remote:
        vllm:
          - endpoint: http://vllm.ai.svc:8000/v1
`;

/** `validate` on one file: its status and output, and the stdout lines of the CR (`file:line: ai/chat: …`). */
function validate(text: string): RunResult & { lines: string[] } {
  const dir = writeTree(tempDir(), { 'cr.yaml': text });
  const r = run(['validate', dir]);
  return { ...r, lines: `${r.stdout}${r.stderr}`.split('\n').filter((l) => l.includes('ai/chat:')) };
}

/** The image of the Deployment `build` renders. */
function deploymentImage(text: string): string {
  const dir = writeTree(tempDir(), { 'cr.yaml': text });
  const r = run(['build', dir]);
  expect(r.status, r.stderr).toBe(0);
  const deployment = parseStream(r.stdout).find((o) => o.kind === 'Deployment') as KrmObject & {
    spec: { template: { spec: { containers: Array<{ image: string }> } } };
  };
  return deployment.spec.template.spec.containers[0]?.image as string;
}

const annotationAt = 'metadata.annotations["llamastack.io/release"]';

describe('the forms of a release', () => {
  it('`1.2.4+rhaiv.0` is a build of 1.2.4: starter renders its 1.2 line at 1.2.4, and the summary names the build', () => {
    const r = validate(llsd('1.2.4+rhaiv.0'));
    expect(r.status, r.stderr).toBe(0);
    expect(r.lines.join('\n')).toContain(
      'info: generated config.yaml with 0 providers from the LLSD (36 in all) and 0 models for OGX 1.2.4+rhaiv.0 (distribution starter, image ' +
        'docker.io/ogxai/distribution-starter:1.2.4)',
    );
    const info = `${annotationAt}: info: release 1.2.4+rhaiv.0 renders with the facts of 1.2.2, the newest 1.2 release llsd-render knows`;
    expect(r.lines.join('\n')).toContain(info);
    // An image tag cannot hold `+`: the Deployment runs the upstream release's tag.
    expect(deploymentImage(llsd('1.2.4+rhaiv.0'))).toBe('docker.io/ogxai/distribution-starter:1.2.4');
  });

  it('`v1.2.2` is 1.2.2, a release starter ships: its own image, nothing more to tell', () => {
    const r = validate(llsd('v1.2.2'));
    expect(r.status, r.stderr).toBe(0);
    expect(r.lines).toHaveLength(1);
    expect(r.lines[0]).toContain('for OGX 1.2.2 (distribution starter, image docker.io/ogxai/distribution-starter:1.2.2)');
  });

  it('an annotation that is no release is an error at the annotation showing the forms', () => {
    const r = validate(llsd('1.2'));
    expect(r.status).toBe(1);
    const forms = /such as `(\d+\.\d+\.\d+)`, `v\1` or `\1\+rhaiv\.0`, not "1\.2"/;
    expect(r.stderr).toContain(`${annotationAt}: must name a release, `);
    expect(r.stderr).toMatch(forms);
  });
});

describe('a release the catalog lacks', () => {
  it('starter 1.2.5 renders with the facts of 1.2.2, told as an info naming both; the image is 1.2.5', () => {
    const r = validate(llsd('1.2.5'));
    expect(r.status, r.stderr).toBe(0);
    expect(r.lines.some((l) => l.includes(' warning: '))).toBe(false);
    expect(r.lines.join('\n')).toContain(
      `${annotationAt}: info: release 1.2.5 renders with the facts of 1.2.2, the newest 1.2 release llsd-render knows (the base config of ` +
        'distribution "starter" at 1.2.2, image docker.io/ogxai/distribution-starter:1.2.5)',
    );
    expect(deploymentImage(llsd('1.2.5'))).toBe('docker.io/ogxai/distribution-starter:1.2.5');
  });

  it('starter 1.5.0 renders against the newest release with a warning that names both, never silently', () => {
    const r = validate(llsd('1.5.0'));
    expect(r.status, r.stderr).toBe(0);
    expect(r.lines.join('\n')).toContain(
      `${annotationAt}: warning: release 1.5.0 is newer than every release llsd-render knows (the newest is 1.3.0), so it renders with the facts of ` +
        '1.3.0 (the base config of distribution "starter" at 1.3.0, image docker.io/ogxai/distribution-starter:1.5.0): what 1.5.0 added or changed ' +
        'is not checked; update llsd-render, or pin a release it knows [release-newer-than-catalog]',
    );
    expect(deploymentImage(llsd('1.5.0'))).toBe('docker.io/ogxai/distribution-starter:1.5.0');
  });

  it('a release of a line the catalog lacks stays an error listing starter\'s releases', () => {
    const r = validate(llsd('0.9.0'));
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('distribution "starter" has no release "0.9.0"; available: ');
  });

  it('an OGXServer on starter at 1.2.5 renders too, with the same info', () => {
    const r = validate(ogxServer('starter', '  annotations:\n    llamastack.io/release: "1.2.5"\n'));
    expect(r.status, r.stderr).toBe(0);
    expect(r.lines.join('\n')).toContain(`${annotationAt}: info: release 1.2.5 renders with the facts of 1.2.2, the newest 1.2 release llsd-render knows`);
    expect(r.lines.join('\n')).toContain('for OGX 1.2.5 (distribution starter, image docker.io/ogxai/distribution-starter:1.2.5)');
  });
});

describe('an OGXServer on a distribution the RenderConfig adds', () => {
  const renderConfig = `apiVersion: fn.llamastack.io/v1alpha1
kind: RenderConfig
metadata:
  name: options
spec:
  distributions:
    mine:
      image: quay.io/acme/mine:1.2.2
      release: "1.2.2"
      config:
        version: 2
        distro_name: mine
        apis: [inference]
        providers:
          inference:
            - provider_id: vllm
              provider_type: remote::vllm
              config: {base_url: "http://vllm:8000/v1"}
        storage:
          backends:
            kv_default: {type: kv_sqlite, db_path: /tmp/kv.db}
            sql_default: {type: sql_sqlite, db_path: /tmp/sql.db}
          stores:
            metadata: {backend: kv_default, namespace: registry}
            inference: {backend: sql_default, table_name: inference_store}
            conversations: {backend: sql_default, table_name: conversations}
`;

  it('renders on it, as an LLSD would: the name check reads the merged catalog', () => {
    const r = validate(`${renderConfig}---\n${ogxServer('mine')}`);
    expect(r.status, r.stderr).toBe(0);
    expect(r.lines.join('\n')).toContain('for OGX 1.2.2 (distribution mine, image quay.io/acme/mine:1.2.2)');
    expect(deploymentImage(`${renderConfig}---\n${ogxServer('mine')}`)).toBe('quay.io/acme/mine:1.2.2');
  });

  it('its `release` is read as the annotation is: `v1.2.2` is the entry for 1.2.2', () => {
    const r = validate(`${renderConfig.replace('release: "1.2.2"', 'release: "v1.2.2"')}---\n${ogxServer('mine')}`);
    expect(r.status, r.stderr).toBe(0);
    expect(r.lines.join('\n')).toContain('for OGX 1.2.2 (distribution mine, image quay.io/acme/mine:1.2.2)');
  });

  it('without the RenderConfig the name is unknown, and the error offers the shipped names', () => {
    const r = validate(ogxServer('mine'));
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/spec\.distribution\.name: unknown distribution "mine".*available distributions: .*starter/);
  });
});
