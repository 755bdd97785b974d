// Secret values never leave the Secret object they were written in: not into generated objects,
// results, stderr or `-o` files, in any mode, whether the render succeeds or fails.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import {
  copyFixture,
  expectNoCrash,
  isGenerated,
  occurrences,
  parseResourceList,
  parseStream,
  quickstartText,
  readFixture,
  ref,
  resourceList,
  run,
  tempDir,
  withKptAnnotations,
  writeTree,
  type KrmObject,
} from './run.js';

const SECRET = 's3cr3t-VALUE-123';
const SECRET_B64 = Buffer.from(SECRET).toString('base64');
const secretValues = [SECRET, SECRET_B64];

/** Where a value may appear: inside the Secret object that holds it, nowhere else. */
function expectOnlyInSecret(objects: readonly KrmObject[], label: string): void {
  for (const object of objects) {
    const text = stringify(object);
    if (object.kind === 'Secret' && !isGenerated(object)) continue;
    for (const value of secretValues) expect(occurrences(text, value), `${label}: ${ref(object)} holds a secret value`).toBe(0);
  }
}

describe('secret values', () => {
  it('the fixture Secret holds the value both in stringData and base64 in data', () => {
    const text = readFixture('secret.yaml');
    expect(occurrences(text, SECRET)).toBe(1);
    expect(occurrences(text, SECRET_B64)).toBe(1);
  });

  it('KRM mode: only the pass-through Secret holds them; generated objects, results and stderr do not', () => {
    const input = resourceList([
      withKptAnnotations(readFixture('secret.yaml'), 'secret.yaml', 0, 1),
      withKptAnnotations(quickstartText(), 'llsd.yaml', 0, 2),
    ]);
    const r = run([], { input });
    expect(r.status, r.stderr).toBe(0);
    const list = parseResourceList(r.stdout);
    expect(list.items.filter(isGenerated).length).toBeGreaterThanOrEqual(4);
    expectOnlyInSecret(list.items, 'KRM');
    for (const value of secretValues) {
      // Exactly once on stdout: the pass-through Secret as the user wrote it.
      expect(occurrences(r.stdout, value)).toBe(1);
      expect(stringify(list.results)).not.toContain(value);
      expect(r.stderr).not.toContain(value);
    }
    // The Deployment takes the token through a secretKeyRef instead.
    const deployment = list.items.find((o) => isGenerated(o) && o.kind === 'Deployment');
    expect(stringify(deployment)).toMatch(/secretKeyRef:\n\s+name: vllm-credentials\n\s+key: token/);
  });

  it('build: only the pass-through Secret holds them; stderr never does', () => {
    const dir = writeTree(tempDir(), { 'llsd.yaml': quickstartText(), 'secret.yaml': readFixture('secret.yaml') });
    const r = run(['build', '.'], { cwd: dir });
    expect(r.status, r.stderr).toBe(0);
    const objects = parseStream(r.stdout);
    expect(objects.filter(isGenerated).length).toBeGreaterThanOrEqual(4);
    expectOnlyInSecret(objects, 'build');
    for (const value of secretValues) {
      expect(occurrences(r.stdout, value)).toBe(1);
      expect(r.stderr).not.toContain(value);
    }
  });

  it('build -o: the per-LLSD file holds none of them', () => {
    const dir = writeTree(tempDir(), { 'llsd.yaml': quickstartText(), 'secret.yaml': readFixture('secret.yaml') });
    const out = join(tempDir(), 'out');
    const r = run(['build', '-o', out, '.'], { cwd: dir });
    expect(r.status, r.stderr).toBe(0);
    const generated = readFileSync(join(out, 'llama/quickstart.yaml'), 'utf8');
    expect(generated).toContain('vllm-credentials');
    for (const value of secretValues) {
      expect(generated).not.toContain(value);
      expect(r.stdout + r.stderr).not.toContain(value);
    }
  });

  it('validate: neither stdout nor stderr holds them', () => {
    const dir = writeTree(tempDir(), { 'llsd.yaml': quickstartText(), 'secret.yaml': readFixture('secret.yaml') });
    const r = run(['validate', '.'], { cwd: dir });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/llama\/quickstart: info: /);
    for (const value of secretValues) expect(r.stdout + r.stderr).not.toContain(value);
  });

  describe('failing renders', () => {
    it('build: a token pasted where a Secret reference belongs is reported without its value', () => {
      const dir = tempDir();
      copyFixture('bad/inline-api-key.yaml', `${dir}/llsd.yaml`);
      copyFixture('secret.yaml', `${dir}/secret.yaml`);
      const r = run(['build', '.'], { cwd: dir });
      expect(r.status).toBe(1);
      expectNoCrash(r);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^llsd\.yaml:14: llama\/inline-api-key: spec\.providers\.inference\.apiKey: /);
      for (const value of secretValues) expect(r.stderr).not.toContain(value);
    });

    it('validate: the same, on both streams', () => {
      const dir = tempDir();
      copyFixture('bad/inline-api-key.yaml', `${dir}/llsd.yaml`);
      const r = run(['validate', '.'], { cwd: dir });
      expect(r.status).toBe(1);
      for (const value of secretValues) expect(r.stdout + r.stderr).not.toContain(value);
    });

    it('KRM: the results and stderr do not quote the value (the items come back as they were)', () => {
      const input = resourceList([withKptAnnotations(readFixture('bad/inline-api-key.yaml'), 'llsd.yaml', 0, 1)]);
      const r = run([], { input });
      expect(r.status).toBe(1);
      expectNoCrash(r);
      const list = parseResourceList(r.stdout);
      expect(list.results.filter((x) => x.severity === 'error').map((x) => x.field?.path)).toEqual(['spec.providers.inference.apiKey']);
      expect(stringify(list.results)).not.toContain(SECRET);
      expect(r.stderr).not.toContain(SECRET);
      expect(list.items).toEqual(parseResourceList(input).items);
    });

    it('a YAML syntax error on the line of a secret value does not echo the line', () => {
      const dir = tempDir();
      copyFixture('bad/unterminated-secret.yaml', `${dir}/secret.yaml`);
      const r = run(['build', '.'], { cwd: dir });
      expect(r.status).toBe(1);
      expectNoCrash(r);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^secret\.yaml:\d+: /);
      expect(r.stderr).not.toContain(SECRET);

      const k = run([], {
        input: `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n  - apiVersion: v1\n    kind: Secret\n    metadata: {name: s}\n    stringData:\n      token: "${SECRET}\n`,
      });
      expect(k.status).toBe(1);
      expectNoCrash(k);
      expect(k.stdout + k.stderr).not.toContain(SECRET);
    });

    it('a failing render next to a Secret prints nothing on stdout (so not the Secret either)', () => {
      const dir = tempDir();
      copyFixture('bad/unknown-provider.yaml', `${dir}/llsd.yaml`);
      copyFixture('secret.yaml', `${dir}/secret.yaml`);
      const r = run(['build', '.'], { cwd: dir });
      expect(r.status).toBe(1);
      expect(r.stdout).toBe('');
      for (const value of secretValues) expect(r.stderr).not.toContain(value);
    });
  });
});

describe('a credential in a URL in the container env (attacker probe)', () => {
  it('workload.overrides.env value postgres://u:PASS@h/db: an error naming valueFrom.secretKeyRef, the value not printed', () => {
    const llsd = quickstartText().replace(
      '  resources:\n',
      '  workload:\n    overrides:\n      env:\n        - {name: DATABASE_URL, value: "postgres://app:PASS123@db:5432/app"}\n        - {name: PLAIN, value: "http://db:5432/app"}\n  resources:\n',
    );
    const dir = tempDir();
    writeFileSync(join(dir, 'llsd.yaml'), llsd);
    const r = run(['build', dir]);
    expectNoCrash(r);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /llsd\.yaml:\d+: llama\/quickstart: spec\.workload\.overrides\.env\[0\]\.value: must not hold a credential in a URL \(a password in its user information\): .*`valueFrom: \{secretKeyRef: \{name: <secret>, key: <key>\}\}` instead of `value`/,
    );
    expect(r.stderr).not.toContain('PASS123');
    expect(r.stderr).not.toContain('env[1]');
  });
});

describe('credentials in an image reference or a credential-named env var (attacker probe round 2)', () => {
  it.each(['https://u:SECRETVAL@registry.example.com/x/y:1.0', 'u:SECRETVAL@registry.example.com/x/y:1.0', 'registry.example.com/x/y:1.0?token=SECRETVAL'])(
    'spec.distribution.image %s: an error that does not quote it',
    (image) => {
      const dir = tempDir();
      writeFileSync(join(dir, 'llsd.yaml'), quickstartText().replace('    name: starter', `    image: "${image}"`));
      const r = run(['build', '--offline', dir]);
      expectNoCrash(r);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain('spec.distribution.image: is not an image reference: write `registry/repository:tag` with no scheme');
      expect(r.stderr).not.toContain('SECRETVAL');
    },
  );

  it('env OPENAI_API_KEY with a value: an error naming valueFrom.secretKeyRef; MAX_TOKENS is fine', () => {
    const llsd = quickstartText().replace(
      '  resources:\n',
      '  workload:\n    overrides:\n      env:\n        - {name: MAX_TOKENS, value: "4096"}\n        - {name: OPENAI_API_KEY, value: sk-SECRETVAL}\n  resources:\n',
    );
    const dir = tempDir();
    writeFileSync(join(dir, 'llsd.yaml'), llsd);
    const r = run(['build', dir]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/spec\.workload\.overrides\.env\[1\]\.value: must not hold the value: OPENAI_API_KEY names a credential/);
    expect(r.stderr).not.toContain('env[0]');
    expect(r.stderr).not.toContain('SECRETVAL');
  });
});

describe('a key the Secret in the input does not have (new-user probe, issue 18)', () => {
  const secret = (stringData: Record<string, string>) =>
    `---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: vllm-credentials\n  namespace: llama\nstringData:\n${Object.entries(stringData)
      .map(([k, v]) => `  ${k}: ${v}`)
      .join('\n')}\n`;
  const write = (extra: string, name = 'llsd.yaml'): string => {
    const dir = tempDir();
    writeFileSync(join(dir, name), quickstartText().replace('key: token', 'key: tokn') + extra);
    return dir;
  };

  it('an error at the reference naming the keys it has and the nearest, never a value; nothing is printed (issue 29: the pod cannot start)', () => {
    const r = run(['build', write(secret({ token: SECRET, other: 'x' }))]);
    expectNoCrash(r);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /spec\.providers\.inference\.apiKey: refers to key "tokn" of the Secret "vllm-credentials", whose keys are "other", "token"; the pod would not start \(CreateContainerConfigError\): did you mean "token"\? write one of its keys, or add the key to the Secret \(if the key is added after the render, `secretPolicy: off` makes this a warning\)\n/,
    );
    expect(occurrences(r.stderr, SECRET)).toBe(0);
  });

  it('in KRM mode too: an error result, exit 1', () => {
    const r = run([], { input: resourceList([quickstartText().replace('key: token', 'key: tokn'), secret({ token: SECRET })]) });
    expect(r.status, r.stderr).toBe(1);
    const { results } = parseResourceList(r.stdout);
    const errors = results.filter((x) => x.severity === 'error');
    expect(errors).toEqual([
      expect.objectContaining({
        field: { path: 'spec.providers.inference.apiKey' },
        message: expect.stringContaining('refers to key "tokn" of the Secret "vllm-credentials", whose keys are "token"'),
      }),
    ]);
    expect(occurrences(JSON.stringify(results) + r.stderr, SECRET)).toBe(0);
  });

  it('with secretPolicy: off a warning with its code, so it can be silenced; the render goes on', () => {
    const dir = write(secret({ token: SECRET }));
    const config = (silence: string) =>
      `apiVersion: fn.llamastack.io/v1alpha1\nkind: RenderConfig\nmetadata:\n  name: off\nspec:\n  secretPolicy: off\n${silence}`;
    writeFileSync(join(dir, 'render-config.yaml'), config(''));
    const r = run(['build', dir]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/apiKey: warning: refers to key "tokn" of the Secret "vllm-credentials", whose keys are "token".*Secret \[secret-key-missing\]/);
    writeFileSync(join(dir, 'render-config.yaml'), config('  silence: [secret-key-missing]\n'));
    const silenced = run(['build', dir]);
    expect(silenced.status, silenced.stderr).toBe(0);
    expect(silenced.stderr).not.toContain('tokn');
  });

  it('with secretPolicy: strict an error, and nothing is printed', () => {
    const dir = write(secret({ token: SECRET }));
    writeFileSync(
      join(dir, 'render-config.yaml'),
      'apiVersion: fn.llamastack.io/v1alpha1\nkind: RenderConfig\nmetadata:\n  name: strict\nspec:\n  secretPolicy: strict\n',
    );
    const r = run(['build', dir]);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/apiKey: refers to key "tokn" of the Secret "vllm-credentials", whose keys are "token"/);
  });

  it('a merge key `<<` in stringData (Kubernetes applies it, so the key may be there): no such warning (attacker round 7)', () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'llsd.yaml'),
      `${quickstartText().replace('key: token', 'key: user')}---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: vllm-credentials\n  namespace: llama\nstringData: {<<: {user: x}, token: y}\n`,
    );
    const r = run(['build', dir]);
    expect(r.stderr).not.toContain('secret-key-missing');
  });

  it('the key present (in data, base64): no such warning', () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'llsd.yaml'),
      `${quickstartText()}---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: vllm-credentials\n  namespace: llama\ndata:\n  token: ${SECRET_B64}\n`,
    );
    const r = run(['build', dir]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('secret-key-missing');
  });
});

describe('a Secret the API server would refuse (new-user probe, issue 29 follow-up)', () => {
  const secret = (body: string) => `---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: vllm-credentials\n  namespace: llama\n${body}`;

  it.each([
    ['data that is not base64', `data:\n  token: ${SECRET}!\n`, 'data.token', /must be base64-encoded, and this value is not base64 \(the API server refuses/],
    ['data that is a number', 'data:\n  token: 123456\n', 'data.token', /must be base64-encoded text, not a number \(the API server refuses/],
    ['stringData that is a mapping', `stringData:\n  token: {value: ${SECRET}}\n`, 'stringData.token', /must be text, not a mapping \(the API server refuses/],
    ['stringData that is a list', `stringData:\n  token: [${SECRET}]\n`, 'stringData.token', /must be text, not a list \(the API server refuses/],
    // Beyond 2^53 the number is held as written: it was named "a object".
    ['stringData that is a number beyond 2^53', 'stringData:\n  token: 98765432123456789\n', 'stringData.token', /must be text, not a number \(the API/],
  ])('%s: an error at the field, nothing printed, the value never shown', (_name, body, field, message) => {
    for (const mode of ['build', 'validate']) {
      const dir = tempDir();
      writeFileSync(join(dir, 'llsd.yaml'), quickstartText() + secret(body));
      const r = run([mode, dir]);
      expectNoCrash(r);
      expect(r.status, r.stderr).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(new RegExp(`llama/vllm-credentials: ${field.replace('.', '\\.')}: ${message.source}`));
      expect(occurrences(r.stderr, SECRET)).toBe(0);
      expect(r.stderr).not.toContain('123456');
    }
  });

  it('base64 with line breaks (as `base64` wraps it) and null values are fine', () => {
    const dir = tempDir();
    const wrapped = Buffer.from(SECRET.repeat(8)).toString('base64').replace(/(.{76})/g, '$1\n    ');
    writeFileSync(join(dir, 'llsd.yaml'), quickstartText() + secret(`data:\n  token: |\n    ${wrapped}\n  empty: null\nstringData:\n  other: null\n`));
    const r = run(['build', dir]);
    expect(r.status, r.stderr).toBe(0);
  });
});
