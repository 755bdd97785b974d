// The OGXServer field reference of docs/ogxserver.md is made from the schema
// (scripts/field-reference.mjs over `llsd-render schema --kind OGXServer --json-schema`): a field
// added or described anew without `npm run build && node scripts/field-reference.mjs --write` fails
// here. Every field has a description, and the page's example OGXServer passes validation.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
// @ts-expect-error: a plain .mjs script without type declarations
import { fieldReference, markers, page, withFieldReference } from '../../scripts/field-reference.mjs';
import { ogxJsonSchemaOfSpec } from '../../src/ogx/json-schema.js';
import { parseOgxServer } from '../../src/ogx/ogxserver.js';
import type { KrmObject } from '../../src/krm/item.js';
import { codeBlocks } from './markdown.js';

const text = readFileSync(join(import.meta.dirname, '..', '..', page as string), 'utf8');
const table = (fieldReference as (schema: unknown) => string)(ogxJsonSchemaOfSpec());
const rows = table.split('\n').slice(2).map((line) => line.split(/(?<!\\)\|/).map((cell) => cell.trim()));

describe('the OGXServer field reference of docs/ogxserver.md', () => {
  it('is the table the schema gives (update: npm run build && node scripts/field-reference.mjs --write)', () => {
    expect(text).toContain(markers.start);
    expect((withFieldReference as (page: string, schema: unknown) => string)(text, ogxJsonSchemaOfSpec())).toBe(text);
  });

  it('has a row for every field, down to the providers, with a description in each', () => {
    const paths = rows.map((cells) => cells[1]);
    for (const path of [
      '`spec.distribution.name`',
      '`spec.disabledAPIs`',
      '`spec.network.externalAccess.tls.secretName`',
      '`spec.providers.inference.remote.vllm[].endpoint`',
      '`spec.providers.vectorIo.remote.pgvector[].vectorIndex.hnsw.m`',
      '`spec.providers.responses.inline.builtin.vectorStoresConfig.fileSearchParams.headerTemplate`',
      '`spec.workload.storage.size`',
    ]) {
      expect(paths).toContain(path);
    }
    expect(rows.filter((cells) => !cells[5]).map((cells) => cells[1])).toEqual([]);
  });

  it('says type, default and accepted values', () => {
    const rowOf = (path: string) => rows.find((cells) => cells[1] === `\`${path}\``)?.slice(2, 5);
    expect(rowOf('spec.storage.sql.type')).toEqual(['string', '`"sqlite"`', '`sqlite`, `postgres`']);
    expect(rowOf('spec.disabledAPIs')).toEqual([
      'list of strings',
      '',
      '`batches`, `file_processors`, `inference`, `responses`, `tool_runtime`, `vector_io`, `files`, `conversations`; 1–8 items',
    ]);
    expect(rowOf('spec.network.port')).toEqual(['integer', '`8321`', '1–65535']);
    expect(rowOf('spec.distribution')).toEqual(['mapping, **required**', '', '']);
    expect(rowOf('spec.providers.inference.remote.vllm[].apiToken')).toEqual(['Secret key `{name, key}`', '', '']);
    expect(rowOf('spec.workload.overrides.env')).toEqual(['list of Kubernetes EnvVar', '', 'at least 1 item']);
    // A group of fields listed once: the second place names the first.
    const custom = rows.find((cells) => cells[1] === '`spec.providers.inference.remote.custom`');
    expect(custom?.[5]).toMatch(/Fields as `spec\.providers\.batches\.inline\.custom\[\]`/);
  });

  it('its example OGXServer is valid', () => {
    const section = text.slice(text.indexOf('\n## Field reference\n'));
    const [block] = codeBlocks(section).filter((b) => b.lang === 'yaml');
    const spec = (parse(block?.text ?? '') as { spec: unknown }).spec;
    const object = { apiVersion: 'ogx.io/v1beta1', kind: 'OGXServer', metadata: { name: 'chat', namespace: 'ai' }, spec } as unknown as KrmObject;
    const parsed = parseOgxServer(object, { distributions: ['starter'] });
    expect(parsed.problems.filter((p) => (p.severity ?? 'error') === 'error')).toEqual([]);
    expect(parsed.ok).toBe(true);
  });
});
