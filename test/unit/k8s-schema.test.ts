// docs/config-generation.md: the output validates against the Kubernetes OpenAPI schemas of the kinds emitted.
// Every object of every golden `expected.yaml` is checked with the validator of its kind from
// `kubernetes-models` (JSON schemas generated from the Kubernetes OpenAPI spec, compiled with ajv).
// Kinds it has no schema for are listed below with the reason; any other kind fails the test.
//
// Limits of these schemas: like the OpenAPI spec they come from, they do not reject unknown
// fields (the API server does that with strict field validation), and they do not check what
// only the API server checks (label syntax, quantities' ranges, cross-field rules).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { keyOf, modelOf, withoutSchema, type Model } from '../kubernetes-models.js';

interface Item {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
}

const root = join(import.meta.dirname, '..', 'golden');
const objects = readdirSync(root)
  .sort()
  .flatMap((name) => {
    const list = parse(readFileSync(join(root, name, 'expected.yaml'), 'utf8')) as { items?: Item[] } | null;
    return (list?.items ?? []).map((object, index) => ({ at: `${name}[${index}] ${object.kind}/${object.metadata.name}`, object }));
  });

describe('golden output against the Kubernetes OpenAPI schemas', () => {
  it('finds objects to check, of the kinds llsd-render generates', () => {
    const kinds = new Set(objects.map(({ object }) => keyOf(object)));
    for (const kind of [
      'v1/ConfigMap',
      'v1/ServiceAccount',
      'apps/v1/Deployment',
      'v1/Service',
      'v1/PersistentVolumeClaim',
      'autoscaling/v2/HorizontalPodAutoscaler',
      'policy/v1/PodDisruptionBudget',
    ]) {
      expect(kinds, kind).toContain(kind);
    }
  });

  it('has a schema for every kind, or lists it in `withoutSchema` with the reason', () => {
    const missing = objects
      .filter(({ object }) => !modelOf(object.apiVersion, object.kind) && !Object.hasOwn(withoutSchema, keyOf(object)))
      .map(({ at }) => at);
    expect(missing, 'add its kubernetes-models module above, or list the kind in `withoutSchema` with the reason').toEqual([]);
  });

  const validated = objects.filter(({ object }) => modelOf(object.apiVersion, object.kind));
  it.each(validated.map((o) => [o.at, o.object] as const))('%s validates', (_at, object) => {
    const model = modelOf(object.apiVersion, object.kind) as Model;
    expect(() => new model(object).validate()).not.toThrow();
  });

  it('lists only kinds that really have no schema', () => {
    for (const key of Object.keys(withoutSchema)) {
      const at = key.lastIndexOf('/');
      expect(modelOf(key.slice(0, at), key.slice(at + 1)), key).toBeUndefined();
    }
  });

  it('the validators reject what the API server would', () => {
    const deployment = objects.find(({ object }) => object.kind === 'Deployment')?.object as unknown as {
      spec: { template: { spec: { containers: Array<{ ports: Array<{ containerPort: unknown }> }> } } };
    };
    const broken = structuredClone(deployment);
    (broken.spec.template.spec.containers[0] as { ports: Array<{ containerPort: unknown }> }).ports[0] = { containerPort: 'http' };
    expect(() => new (modelOf('apps/v1', 'Deployment') as Model)(broken).validate()).toThrow(/containerPort must be integer/);
  });
});
