// `llsd-render image-labels`: the labels that put a config.yaml into a distribution image, checked
// by reading them back with the same code that reads an image's labels.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configLocation } from '../../src/catalog/image-labels.js';
import { expectNoCrash, repoRoot, run, tempDir } from './run.js';

const starter = join(repoRoot, 'configs', 'distributions', 'starter', '0.7.1.yaml');
const starterText = readFileSync(starter, 'utf8');
const layer = `sha256:${'5'.repeat(64)}`;

const labelsOf = (lines: string): Record<string, string> =>
  Object.fromEntries(
    lines
      .trim()
      .split('\n')
      .map((line) => {
        const eq = line.indexOf('=');
        return [line.slice(0, eq), line.slice(eq + 1)];
      }),
  );

describe('llsd-render image-labels', () => {
  it('--release 0.7.1 (before OGX): io.llamastack.* KEY=VALUE lines whose base64 label reads back as the file, byte for byte, and the OCI version', () => {
    const r = run(['image-labels', '--release', '0.7.1', starter]);
    expect(r.status, r.stderr).toBe(0);
    const labels = labelsOf(r.stdout);
    expect(Object.keys(labels)).toEqual(['io.llamastack.config.base64', 'io.llamastack.config.version', 'org.opencontainers.image.version']);
    expect(labels['io.llamastack.config.version']).toBe('2');
    expect(labels['org.opencontainers.image.version']).toBe('0.7.1');
    expect(configLocation(labels)).toEqual({ kind: 'base64', text: starterText });
  });

  it('an OGX release (the default): the com.ogx.* labels of OGX images, which read back as the file', () => {
    const ogxStarter = join(repoRoot, 'configs', 'catalog', '1.3.0', 'distributions', 'starter', 'config.yaml');
    const text = readFileSync(ogxStarter, 'utf8');
    for (const args of [[], ['--release', '1.3.0'], ['--release', 'v1.2.4+rhaiv.0']]) {
      const r = run(['image-labels', ...args, ogxStarter]);
      expect(r.status, r.stderr).toBe(0);
      const labels = labelsOf(r.stdout);
      const release = args[1];
      expect(labels).toEqual({
        'com.ogx.config.config.yaml': Buffer.from(text).toString('base64'),
        'com.ogx.distribution.name': 'starter',
        ...(release !== undefined && { 'com.ogx.distribution.version': release }),
        'com.ogx.distribution.default-config': 'config.yaml',
        'com.ogx.distribution.configs': 'config.yaml',
        ...(release !== undefined && { 'org.opencontainers.image.version': release }),
      });
      expect(configLocation(labels)).toEqual({ kind: 'base64', text });
    }
  });

  it('an OGX config without distro_name: exit 1, the label it would be', () => {
    const file = join(tempDir(), 'config.yaml');
    writeFileSync(file, 'version: 2\napis: []\n');
    const r = run(['image-labels', file]);
    expect([r.status, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toBe(
      `${file}: must name its distribution in \`distro_name\` (e.g. \`distro_name: starter\`): it becomes the label com.ogx.distribution.name\n`,
    );
  });

  it('--format flags: one --label=KEY=VALUE per line, for buildah config and crane mutate', () => {
    const r = run(['image-labels', '--format', 'flags', '--release', '0.7.1', starter]);
    expect(r.stdout.trim().split('\n').every((line) => /^--label=(io\.llamastack\.config\.|org\.opencontainers\.image\.version=)/.test(line))).toBe(true);
    expect(labelsOf(r.stdout.replaceAll('--label=', ''))).toEqual(labelsOf(run(['image-labels', '--release', '0.7.1', starter]).stdout));
  });

  it('--layer and --path (io.llamastack.* only): the layer-reference labels, as JSON with --format json', () => {
    const r = run(['image-labels', '--format', 'json', '--layer', layer, '--path', '/app/config.yaml', starter]);
    expect(r.status, r.stderr).toBe(0);
    const labels = JSON.parse(r.stdout) as Record<string, string>;
    expect(labels).toEqual({ 'io.llamastack.config.layer': layer, 'io.llamastack.config.path': '/app/config.yaml', 'io.llamastack.config.version': '2' });
    expect(configLocation(labels)).toEqual({ kind: 'layer', layer, path: '/app/config.yaml' });
  });

  it.each([
    ['version: 3\n', 'Unsupported config.yaml version 3. Supported versions: 2'],
    ['- a list\n', 'must hold a llama-stack config.yaml mapping (`version: 2`, `apis`, `providers`, …)'],
    ['version: 2\nkey: [unclosed\n', /^is not valid YAML \(line \d\)/],
  ])('a file that is no config.yaml (%j): exit 1, the file and what is wrong, nothing printed', (text, message) => {
    const file = join(tempDir(), 'config.yaml');
    writeFileSync(file, text);
    const r = run(['image-labels', file]);
    expectNoCrash(r);
    expect([r.status, r.stdout]).toEqual([1, '']);
    expect(r.stderr.startsWith(`${file}: `)).toBe(true);
    expect(r.stderr.slice(file.length + 2).trim()).toMatch(message);
  });

  it('a config of 50 KB or more needs the layer form, and the error says how', () => {
    const file = join(tempDir(), 'config.yaml');
    writeFileSync(file, `${starterText}\n# ${'x'.repeat(52 * 1024)}\n`);
    const r = run(['image-labels', '--release', '0.7.1', file]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      /is \d+ bytes; io\.llamastack\.config\.base64 is for configs under 51200 bytes\. Put the file in the image and give --layer <digest of the layer holding it> --path <its path in the image>/,
    );
    expect(run(['image-labels', '--layer', layer, '--path', '/app/config.yaml', file]).status).toBe(0);
  });

  it.each([
    [['image-labels'], 'image-labels needs exactly one CONFIG file'],
    [['image-labels', '--layer', layer, starter], '--layer and --path go together'],
    [['image-labels', '--layer', 'latest', '--path', '/c.yaml', starter], '--layer must be a layer digest (sha256:<64 hex>), not "latest"'],
    [['image-labels', '--layer', layer, '--path', 'c.yaml', starter], '--path must be the absolute path of the file in the image'],
    [['image-labels', '--format', 'xml', starter], '--format must be lines, flags, json, not "xml"'],
    [['image-labels', '--release', '9.9', starter], '--release must be a release llsd-render knows ('],
    [
      ['image-labels', '--release', '1.3.0', '--layer', layer, '--path', '/c.yaml', starter],
      '--layer and --path write io.llamastack.* labels, which an OGX 1.3.0',
    ],
  ])('usage errors exit 2: %j', (args, message) => {
    const r = run(args);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(message);
  });

  it('refuses what `$(…)` would split into other flags: a value with white space in lines/flags, a file name with `=` in any format (attacker F8, F9)', () => {
    const dir = tempDir('llsd-render-labels-inject-');
    const config = join(dir, 'config.yaml');
    writeFileSync(config, 'version: 2\ndistro_name: "starter --entrypoint=/tmp/evil.sh"\napis: [inference]\n');
    for (const format of ['lines', 'flags']) {
      const r = run(['image-labels', '--format', format, config]);
      expect(r.status).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('the value of com.ogx.distribution.name (from CONFIG or the options) holds white space or a control character');
      expect(r.stderr).toContain(`which \`--format ${format}\` cannot carry`);
    }
    // JSON carries the value as a string, whole.
    const json = run(['image-labels', '--format', 'json', config]);
    expect(json.status, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)['com.ogx.distribution.name']).toBe('starter --entrypoint=/tmp/evil.sh');
    const named = join(dir, 'a=b.yaml');
    writeFileSync(named, 'version: 2\ndistro_name: starter\napis: [inference]\n');
    const r = run(['image-labels', '--format', 'json', named]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('its file name holds white space, `=` or a control character');
  });

  it('a missing file: exit 1, no such file', () => {
    const r = run(['image-labels', join(tempDir(), 'nope.yaml')]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/nope\.yaml: no such file or directory\n$/);
  });

  it('/dev/zero (an endless input): refused at the size limit, not read to its end', () => {
    const r = run(['image-labels', '/dev/zero'], { env: { LLSD_RENDER_MAX_INPUT_MB: '1' } });
    expectNoCrash(r);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      '/dev/zero: is larger than 1 MiB, the most llsd-render reads at once (parsing needs about 40 times that in memory): split the package, or set ' +
        'LLSD_RENDER_MAX_INPUT_MB\n',
    );
  });
});
