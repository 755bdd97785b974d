// Metadata that is not text (issue 29, M1): `metadata.namespace: {a: b}` printed
// "[object Object]/chat" in every mode. It is refused at its field, in the LLSD, the OGXServer and an
// object passed through, and no message, resourceRef or name shows "[object Object]".
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectNoCrash, parseResourceList, quickstartText, requireBundle, resourceList, run, tempDir } from './run.js';

const ogx = 'apiVersion: ogx.io/v1beta1\nkind: OGXServer\nmetadata:\n  name: chat\n  namespace: ai\nspec:\n  distribution:\n    name: starter\n';
const configMap = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: chat\n  namespace: ai\ndata: {x: y}\n';
const llsd = (): string => quickstartText().replace(/^ {2}namespace: .*$/m, '  namespace: ai');

const sources: Array<[string, () => string]> = [
  ['LLSD', llsd],
  ['OGXServer', () => ogx],
  ['ConfigMap passed through', () => configMap],
];

/** `doc` with `line` put in its metadata (replacing `namespace:` when the line sets it). */
function withMetadata(doc: string, line: string): string {
  if (line.startsWith('namespace:')) return doc.replace(/^ {2}namespace: .*$/m, `  ${line}`);
  return doc.replace(/^metadata:\n/m, `metadata:\n  ${line}\n`);
}

const wrong: Array<[string, string, string]> = [
  ['namespace: {a: b}', 'metadata.namespace', 'must be a string such as "ai", not a mapping'],
  ['namespace: [ai]', 'metadata.namespace', 'must be a string such as "ai", not a list'],
  ['namespace: 7', 'metadata.namespace', 'must be a string such as "ai", not an integer; quote it: "7"'],
  ['labels: {team: {a: b}}', 'metadata.labels.team', 'must be a string, not a mapping'],
  ['annotations: {note: 5}', 'metadata.annotations.note', 'must be a string, not an integer; quote it: "5"'],
];

describe('metadata that is not text is refused at the field, never printed as [object Object]', () => {
  for (const [source, doc] of sources) {
    for (const [line, field, message] of wrong) {
      it(`${source}, ${line}: build, validate and KRM mode give the error at \`${field}\``, () => {
        const dir = tempDir();
        const file = join(dir, 'input.yaml');
        writeFileSync(file, withMetadata(doc(), line));
        for (const mode of ['build', 'validate']) {
          const r = run([mode, dir]);
          expectNoCrash(r);
          expect(r.status, r.stderr).toBe(1);
          expect(r.stdout).toBe('');
          expect(r.stderr).toContain(`: ${field}: ${message}\n`);
          expect(r.stderr).not.toContain('[object');
        }
        const krm = run([], { input: resourceList([withMetadata(doc(), line)]) });
        expect(krm.status, krm.stderr).toBe(1);
        const { results } = parseResourceList(krm.stdout);
        expect(results.filter((x) => x.severity === 'error')).toEqual([expect.objectContaining({ field: { path: field }, message })]);
        for (const result of results) {
          const namespace = result.resourceRef?.namespace;
          if (namespace !== undefined) expect(typeof namespace).toBe('string');
        }
        expect(krm.stdout + krm.stderr).not.toContain('[object');
      });
    }
  }

  it('an annotations list on an object passed through: the shape to write instead', () => {
    const r = run([], { input: resourceList([withMetadata(configMap, 'annotations: [a]')]) });
    expect(r.status).toBe(1);
    expect(parseResourceList(r.stdout).results).toContainEqual(
      expect.objectContaining({
        field: { path: 'metadata.annotations' },
        message: 'must be a mapping of names to strings, such as `annotations: {team: ai}`, not a list',
      }),
    );
  });

  it('a number written in another form is quoted back as written, not as YAML read it (`0755` is not "755")', () => {
    const dir = tempDir();
    const forms = ['0755', '0x1F', '1e3', '+5', '.5', '1.50', '0o17'];
    const flow = forms.map((form, i) => `n${i}: ${form}`).join(', ');
    writeFileSync(join(dir, 'llsd.yaml'), withMetadata(llsd(), `annotations: {${flow}}`));
    writeFileSync(join(dir, 'cm.yaml'), withMetadata(configMap, `labels:\n    "example.com/mode": 0755\n    plain: 1e3`));
    for (const mode of ['build', 'validate']) {
      const r = run([mode, dir], { cwd: dir });
      expect(r.status, r.stderr).toBe(1);
      forms.forEach((_form, i) => expect(r.stderr).toContain(`metadata.annotations.n${i}: must be a string, not `));
      forms.forEach((form) => expect(r.stderr).toContain(`; quote it: "${form}"\n`));
      expect(r.stderr).toContain('metadata.labels["example.com/mode"]: must be a string, not an integer; quote it: "0755"\n');
      expect(r.stderr).toContain('metadata.labels.plain: must be a string, not an integer; quote it: "1e3"\n');
      expect(r.stderr).not.toMatch(/quote it: "(755|31|1000|5|0\.5|1\.5|15)"/);
    }
  });

  it('text and null values, and no namespace, are fine', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'cm.yaml'), withMetadata(configMap.replace('  namespace: ai\n', ''), 'labels: {team: "5", gone: null}'));
    const r = run(['build', dir]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
  });

  it('an OGXServer whose name is not text is an error, as an LLSD is (it was skipped as "not a Kubernetes object")', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'ogx.yaml'), ogx.replace('name: chat', 'name: {a: b}'));
    const r = run(['build', dir]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('looks like an llsd-render object but lacks a string `apiVersion`, `kind` or `metadata.name`');
  });
});

describe('the "quote it" hint reads the line as written only from a regular file (an attacker probe)', () => {
  const cm = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: a\n  labels: {v: !!int 12}\ndata: {a: b}\n';

  it('a tag the hint cannot resolve prints no YAMLWarning', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'cm.yaml'), cm);
    const r = run(['validate', join(dir, 'cm.yaml')]);
    expectNoCrash(r);
    expect(r.stderr).toContain('metadata.labels.v: must be a string, not an integer; quote it: "12"');
    expect(r.stderr).not.toContain('YAMLWarning');
  });

  it('a named pipe given as PATH: the hint does not read it again (it blocked forever)', () => {
    const dir = tempDir();
    const fifo = join(dir, 'cm.yaml');
    const made = spawnSync('mkfifo', [fifo]);
    expect(made.status, 'mkfifo (coreutils) is needed for this test').toBe(0);
    // The writer gives the text once; a second read would wait for a writer that never comes.
    const writer = spawn('sh', ['-c', `printf '%s' "$0" > "$1"`, cm, fifo]);
    const r = spawnSync(process.execPath, [requireBundle(), 'validate', fifo], { encoding: 'utf8', timeout: 20_000 });
    writer.kill();
    expect(r.signal, 'validate ended by itself').toBe(null);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('metadata.labels.v: must be a string, not an integer; quote it: "12"');
  });
});
