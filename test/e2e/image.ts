// The container image's one name and tag: localhost/llsd-render:<package.json version>. The
// Dockerfile header, the examples, README.md and docs/ name it so (test/unit/image-name.test.ts
// checks), and the tests build it under that name, so the examples run as written.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './tools.js';

export const packageVersion = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
export const imageName = `localhost/llsd-render:${packageVersion}`;
