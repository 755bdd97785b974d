// OGXServer config generation: every OGX release of the catalog starts with a typical spec (the
// same startup and release-schema checks as LLSD output), and the rules of GENERATION.md §7–§10.
import { describe, expect, it } from 'vitest';
import { parseOgxServer, type OgxServer } from '../../src/api/ogxserver.js';
import { ogxServerReleases } from '../../src/catalog/catalog.js';
import { generateOgxConfig } from '../../src/config/ogx-generate.js';
import { asServerConverts } from '../../src/config/legacy-forms.js';
import { checkReleaseSchema } from '../../src/config/release-schema.js';
import { checkStartupRules } from '../../src/config/startup-rules.js';
import { inventoryOf } from '../../src/krm/inventory.js';
import { planOgxServer, type OgxPlan } from '../../src/plan/ogx-plan.js';
import { itemFrom } from '../support.js';

/** An OGXServer with `spec` given as YAML text indented under `spec:`, at a release by the annotation. */
export function ogxServer(spec: string, release?: string): OgxServer {
  const annotations = release === undefined ? '' : `\n  annotations:\n    llamastack.io/release: "${release}"`;
  const parsed = parseOgxServer(itemFrom(`apiVersion: ogx.io/v1beta1\nkind: OGXServer\nmetadata:\n  name: demo\n  namespace: ai${annotations}\nspec:\n${spec}`).object);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.server;
}

export function ogxPlan(spec: string, release?: string): OgxPlan {
  const planned = planOgxServer(ogxServer(spec, release), inventoryOf([]));
  if (!planned.ok) throw new Error(JSON.stringify(planned.problems));
  return planned.plan;
}

const typical = `  distribution: {name: starter}
  providers:
    inference:
      remote:
        vllm:
        - id: vllm
          endpoint: http://vllm.ai.svc:8000/v1
          apiToken: {name: vllm, key: token}
    vectorIo:
      remote:
        pgvector:
        - host: pg.ai.svc
          db: vectors
          user: ogx
          password: {name: pg, key: password}
          vectorIndex: {hnsw: {m: 16}}
  resources:
    models:
    - name: granite
  storage: {}
`;

describe('a typical OGXServer on every OGX release', () => {
  it('the catalog has OGX releases', () => expect(ogxServerReleases().length).toBeGreaterThan(0));

  for (const release of ogxServerReleases()) {
    it(`${release}: passes the startup rules and the release schema with no error`, () => {
      const plan = ogxPlan(typical, release);
      expect(plan.release).toBe(release);
      const generated = generateOgxConfig(plan);
      if (!generated.ok) throw new Error(JSON.stringify(generated.problems));
      const containerEnv = new Set(generated.config.env.map((e) => e.name));
      expect([...containerEnv]).toEqual(['OGX_REMOTE_PGVECTOR_PASSWORD', 'OGX_VLLM_API_TOKEN']);
      const context = { release, catalogRelease: plan.catalogRelease, profile: plan.profile, containerEnv };
      // As src/process.ts checkAsServer judges it: what the server converts first is converted.
      const { config, notes } = asServerConverts(generated.config.value, release, plan.catalogRelease);
      expect(notes).toEqual([]);
      expect(checkStartupRules(config, context).filter((p) => p.severity === 'error')).toEqual([]);
      expect(checkReleaseSchema(config, { ...context, source: 'generated' }).filter((p) => p.severity === 'error')).toEqual([]);
    });
  }
});
