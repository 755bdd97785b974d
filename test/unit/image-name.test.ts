// The container image has one name and tag, localhost/llsd-render:<package.json version>, in every
// place a user copies it from: the Dockerfile header, scripts/local-base-image.sh, examples/**,
// README.md and docs/** (whichever of them exist). A version bump that leaves one behind fails
// here, naming the file and line.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { imageName, packageVersion } from '../e2e/image.js';
import { repoRoot } from '../e2e/tools.js';

/** The files a user reads an image name from; directories are walked (expected output is not prose). */
const sources = ['Dockerfile', 'scripts/local-base-image.sh', 'README.md', 'docs', 'examples'];

function textFiles(path: string): string[] {
  if (!existsSync(path)) return [];
  if (statSync(path).isFile()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .filter((entry) => !(entry.isDirectory() && entry.name === 'node_modules'))
    .flatMap((entry) => textFiles(join(path, entry.name)));
}

interface Mention {
  where: string;
  text: string;
}

/**
 * Every image reference to llsd-render (with any registry and tag, or none after `-t` or `image:`)
 * and every `--build-arg VERSION=…`, with its file and line. The base image
 * (llsd-render-node-base:…) and stderr lines (`llsd-render: …`) are not references.
 */
function imageMentions(text: string, file: string): Mention[] {
  const patterns = [
    /(?<![\w./-])(?:[\w.-]+(?::\d+)?\/)*llsd-render:[A-Za-z0-9_$][\w.${}()-]*/g,
    /(?:-t|--tag)[ =]+(?:[\w.-]+(?::\d+)?\/)*llsd-render(?![\w:-])/g,
    /image:[ \t]*(?:[\w.-]+(?::\d+)?\/)*llsd-render(?![\w:-])/g,
    /--build-arg[ =]VERSION=\S+/g,
  ];
  const mentions: Mention[] = [];
  text.split('\n').forEach((line, index) => {
    for (const pattern of patterns) {
      for (const match of line.matchAll(pattern)) mentions.push({ where: `${file}:${index + 1}`, text: match[0] });
    }
  });
  return mentions;
}

const isDocumented = (m: Mention): boolean => m.text === imageName || m.text.endsWith(` ${imageName}`) || m.text === `--build-arg VERSION=${packageVersion}`;

describe(`the image is named ${imageName} everywhere it is documented`, () => {
  const mentions = sources.flatMap((source) =>
    textFiles(join(repoRoot, source)).flatMap((path) => imageMentions(readFileSync(path, 'utf8'), relative(repoRoot, path))),
  );

  it('finds the mentions it checks (Dockerfile header, the kustomize container example, the Argo CD sidecar)', () => {
    const files = new Set(mentions.map((m) => m.where.replace(/:\d+$/, '')));
    expect([...files]).toEqual(
      expect.arrayContaining(['Dockerfile', 'examples/kustomize/container/render-config.yaml', 'examples/argocd/repo-server-patch.yaml']),
    );
  });

  it('every mention is the documented name, with the version from package.json', () => {
    const wrong = mentions
      .filter((m) => !isDocumented(m))
      .map((m) => `${m.where}: ${m.text} (write ${m.text.startsWith('--build-arg') ? `--build-arg VERSION=${packageVersion}` : imageName})`);
    expect(wrong, 'a mention of the image that is not the documented name').toEqual([]);
  });

  it('tells a wrong tag, a missing tag and another registry from the documented name', () => {
    const found = imageMentions(
      [
        'podman build -t llsd-render .',
        'image: ghcr.io/llamastack/llsd-render:0.0.9',
        `image: ${imageName}`,
        'llsd-render: code cache: read x',
        'localhost/llsd-render-node-base:24.21.0-1a2b3c4d',
        '--build-arg VERSION=$(node -p x)',
      ].join('\n'),
      'sample',
    );
    expect(found.map((m) => [m.where, m.text, isDocumented(m)])).toEqual([
      ['sample:1', '-t llsd-render', false],
      ['sample:2', 'ghcr.io/llamastack/llsd-render:0.0.9', false],
      ['sample:3', imageName, true],
      ['sample:6', '--build-arg VERSION=$(node', false],
    ]);
  });
});
