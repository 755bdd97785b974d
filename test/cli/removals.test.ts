// Objects an earlier render generated, for an LLSD or OGXServer no longer in the input (issue 29,
// G1): they are removed, as before, but never silently: one info each names the object, its file and
// the generated-from value, and says how to keep it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectNoCrash, parseResourceList, quickstartText, resourceList, run, tempDir, withKptAnnotations } from './run.js';

const orphan = (kind: string, name: string, from: string, namespace = 'llama'): string =>
  `apiVersion: v1\nkind: ${kind}\nmetadata:\n  name: ${name}\n  namespace: ${namespace}\n  annotations:\n    llamastack.io/generated-from: ${from}\ndata: {a: b}\n`;

const secret = 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: vllm-credentials\n  namespace: llama\nstringData: {token: x}\n';

const removedMessage = (kind: string, name: string, file: string, from: string): string =>
  `${kind} "${name}" in "${file}" is removed: an earlier render generated it (annotation llamastack.io/generated-from: "${from}") from an LLSD ` +
  'or OGXServer that is not in the input; to keep this object, remove that annotation [generated-object-removed]';

describe('removing what a deleted LLSD or OGXServer generated (KRM mode)', () => {
  const items = [
    withKptAnnotations(quickstartText(), 'apps/llsd.yaml', 0, 1),
    withKptAnnotations(secret, 'apps/secret.yaml', 0, 2),
    // The quickstart's own earlier output: replaced, nothing to say.
    withKptAnnotations(orphan('ConfigMap', 'quickstart-config-0123456789', 'llama/quickstart'), 'apps/quickstart.generated.yaml', 0, 3),
    // Output of a deleted LLSD, and a user's file that kept the mark (legacy path annotation only).
    withKptAnnotations(orphan('ConfigMap', 'gone-config', 'llama/gone'), 'apps/gone.generated.yaml', 0, 4),
    orphan('ConfigMap', 'mine', 'llama/old-name').replace('  annotations:\n', "  annotations:\n    config.kubernetes.io/path: 'apps/mine.yaml'\n"),
  ];

  it('one info per removed object, with its kind, namespace/name, file and generated-from value; the items are gone', () => {
    const r = run([], { input: resourceList(items) });
    expectNoCrash(r);
    expect(r.status, r.stderr).toBe(0);
    const list = parseResourceList(r.stdout);
    const names = list.items.map((o) => o.metadata.name);
    expect(names).not.toContain('gone-config');
    expect(names).not.toContain('mine');
    expect(names).not.toContain('quickstart-config-0123456789');
    const removals = list.results.filter((x) => x.message.includes('[generated-object-removed]'));
    expect(removals).toEqual([
      {
        severity: 'info',
        message: removedMessage('ConfigMap', 'llama/gone-config', 'apps/gone.generated.yaml', 'llama/gone'),
        resourceRef: { apiVersion: 'v1', kind: 'ConfigMap', name: 'gone-config', namespace: 'llama' },
        file: { path: 'apps/gone.generated.yaml', index: 0 },
      },
      {
        severity: 'info',
        message: removedMessage('ConfigMap', 'llama/mine', 'apps/mine.yaml', 'llama/old-name'),
        resourceRef: { apiVersion: 'v1', kind: 'ConfigMap', name: 'mine', namespace: 'llama' },
        file: { path: 'apps/mine.yaml' },
      },
    ]);
    expect(r.stdout).not.toContain('quickstart-config-0123456789');
  });

  it('silenced by its code like a warning', () => {
    const config = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fn\ndata:\n  silence: generated-object-removed\n';
    const r = run([], { input: resourceList(items, config) });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('generated-object-removed');
  });

  it('none when the render fails: the package is kept as it was, so nothing is removed', () => {
    const r = run([], { input: resourceList([...items, quickstartText().replace('name: starter', 'name: nope').replace('name: quickstart', 'name: bad')]) });
    expect(r.status).toBe(1);
    const list = parseResourceList(r.stdout);
    expect(list.items.map((o) => o.metadata.name)).toContain('gone-config');
    expect(r.stdout).not.toContain('generated-object-removed');
  });
});

describe('removing what a deleted LLSD generated (build)', () => {
  it('an info on stderr naming the file, and the object is not printed', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'llsd.yaml'), `${quickstartText()}---\n${secret}`);
    writeFileSync(join(dir, 'old.yaml'), orphan('Service', 'gone-service', 'gone', 'default').replace('  namespace: default\n', ''));
    const r = run(['build', '.'], { cwd: dir });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('gone-service');
    expect(r.stderr).toContain(`old.yaml:1: gone-service: info: ${removedMessage('Service', 'gone-service', 'old.yaml', 'gone')}\n`);
    const validate = run(['validate', '.'], { cwd: dir });
    expect(validate.status, validate.stderr).toBe(0);
    expect(validate.stderr).toContain(`old.yaml:1: gone-service: info: ${removedMessage('Service', 'gone-service', 'old.yaml', 'gone')}\n`);
    expect(validate.stdout).not.toContain('generated-object-removed');
  });
});

// Attacker (after G1): convert left these out too, without a word; `convert > file` then lost them.
describe('leaving out what a deleted LLSD generated (convert)', () => {
  it.each([['v1alpha1'], ['ogx.io/v1beta1']])('convert --to %s: an info on stderr naming the file, and the object is not printed', (to) => {
    const dir = tempDir();
    writeFileSync(join(dir, 'llsd.yaml'), `${quickstartText()}---\n${secret}`);
    writeFileSync(join(dir, 'old.yaml'), orphan('Service', 'gone-service', 'gone', 'default').replace('  namespace: default\n', ''));
    const r = run(['convert', '--to', to, '.'], { cwd: dir });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('gone-service');
    expect(r.stderr).toContain(`old.yaml:1: gone-service: info: ${removedMessage('Service', 'gone-service', 'old.yaml', 'gone')}\n`);
  });
});
