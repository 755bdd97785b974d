// Property tests of the whole render over generated `ogx.io/v1beta1` OGXServers (issue 17, "Tests"):
// valid OGXServers render without errors into schema-valid Kubernetes objects, deterministically
// (whatever the order of the input items and of the keys) and idempotently, and never leak a
// Secret value into the output or the results.
import { isRenderedObject } from '../../src/front-ends.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { ogxServerReleases } from '../../src/catalog/catalog.js';
import { readResourceList, writeStream } from '../../src/krm/resource-list.js';
import { schemaProblem } from '../kubernetes-models.js';
import { unrelatedObjects, type GeneratedLlsd } from './arbitraries.js';
import { validOgxServer } from './ogx-arbitraries.js';
import { errorsOf, generated, numRuns, renderBuild, renderKrm, resourceList, shuffledKeys, streamOf } from './render.js';

const inputOf = (g: GeneratedLlsd): object[] => [g.llsd, ...g.secrets];
const praxisOn = (g: GeneratedLlsd): boolean => g.llsd.spec.praxisMode !== undefined && g.llsd.spec.praxisMode.enabled !== false;
const summaryOf = /^(generated config\.yaml|uses config\.yaml from the ConfigMap|sets no providers)/;

describe('valid OGXServers', () => {
  it('render with no error result, with one summary and schema-valid Kubernetes objects', () => {
    fc.assert(
      fc.property(validOgxServer(), (g) => {
        const { items, results } = renderBuild(inputOf(g));
        expect(errorsOf(results), stringify(g.llsd)).toEqual([]);
        expect(results.filter((r) => r.severity === 'info' && summaryOf.test(r.message))).toHaveLength(1);
        const kinds = generated(items).map((o) => o.kind);
        expect(kinds).toEqual(expect.arrayContaining(['Deployment', 'Service', 'ServiceAccount']));
        // A generated config is a ConfigMap of its own; override and none mode mount none of ours.
        const declarative = ['providers', 'storage', 'resources', 'disabledAPIs'].some((k) => k in g.llsd.spec);
        const praxisGenerates = praxisOn(g) && !('overrideConfig' in g.llsd.spec);
        expect(kinds.includes('ConfigMap') || !(declarative || praxisGenerates), stringify(g.llsd)).toBe(true);
        // Praxis mode: no Ingress; the migration Job exactly when migrationJob is on.
        if (praxisOn(g)) expect(kinds).not.toContain('Ingress');
        const jobWanted = praxisOn(g) && g.llsd.spec.praxisMode.migrationJob !== undefined && g.llsd.spec.praxisMode.migrationJob.enabled !== false;
        expect(kinds.includes('Job'), stringify(g.llsd)).toBe(jobWanted);
        for (const object of generated(items)) expect(schemaProblem(object), `${object.kind}/${object.metadata.name}\n${stringify(g.llsd)}`).toBeUndefined();
      }),
      { numRuns },
    );
  });

  it('expose what externalAccess asks, and monitor their own Service only', () => {
    fc.assert(
      fc.property(validOgxServer(), (g) => {
        const objects = generated(renderBuild(inputOf(g)).items) as Array<Record<string, any>>;
        const access = g.llsd.spec.network?.externalAccess;
        const ingresses = objects.filter((o) => o.kind === 'Ingress');
        // Praxis mode renders no Ingress, whatever externalAccess asks.
        const praxis = g.llsd.spec.praxisMode !== undefined && g.llsd.spec.praxisMode.enabled !== false; // enabled defaults to true when present
        if (access?.enabled === true && !praxis) {
          const tls = [{ hosts: [access.hostname], secretName: access.tls.secretName }];
          expect(ingresses.map((i) => [i.spec.rules[0].host, i.spec.tls])).toEqual([[access.hostname, tls]]);
        } else expect(ingresses).toEqual([]);
        const services = objects.filter((o) => o.kind === 'Service');
        for (const monitor of objects.filter((o) => o.kind === 'ServiceMonitor')) {
          const selects = (s: Record<string, any>) =>
            Object.entries(monitor.spec.selector.matchLabels as Record<string, string>).every(([k, v]) => s.metadata.labels[k] === v);
          expect(services.filter(selects).map((s) => s.metadata.name)).toEqual([`${g.llsd.metadata.name}-service`]);
        }
      }),
      { numRuns },
    );
  });

  it('render the same bytes every time, whatever the order of the input items', () => {
    const input = fc.tuple(validOgxServer(), unrelatedObjects).chain(([g, unrelated]) => {
      const ordered: object[] = [...inputOf(g), ...unrelated];
      return fc.shuffledSubarray(ordered, { minLength: ordered.length, maxLength: ordered.length }).map((shuffled) => ({ ordered, shuffled }));
    });
    fc.assert(
      fc.property(input, ({ ordered, shuffled }) => {
        const first = renderBuild(ordered);
        const again = renderBuild(ordered);
        expect(writeStream(again.items)).toBe(writeStream(first.items));
        expect(again.results).toEqual(first.results);
        const reordered = renderBuild(shuffled);
        expect(errorsOf(reordered.results)).toEqual([]);
        expect(streamOf(generated(reordered.items))).toBe(streamOf(generated(first.items)));
      }),
      { numRuns },
    );
  });

  it("render the same bytes whatever the key order of the OGXServer's mappings", () => {
    const input = validOgxServer().chain((g) => shuffledKeys(g.llsd).map((shuffled) => ({ g, shuffled: shuffled as Record<string, any> })));
    fc.assert(
      fc.property(input, ({ g, shuffled }) => {
        const first = renderBuild(inputOf(g));
        const reordered = renderBuild([shuffled, ...g.secrets]);
        expect(errorsOf(reordered.results)).toEqual([]);
        expect(writeStream(reordered.items)).toBe(writeStream(first.items));
        expect(reordered.results).toEqual(first.results);
      }),
      { numRuns },
    );
  });

  it('are idempotent in KRM mode: rendering the output again changes nothing', () => {
    fc.assert(
      fc.property(validOgxServer({ kptPath: true }), unrelatedObjects, (g, unrelated) => {
        const first = renderKrm(resourceList([...inputOf(g), ...unrelated]));
        expect(errorsOf(first.results), stringify(g.llsd)).toEqual([]);
        const second = renderKrm(first.text);
        expect(errorsOf(second.results)).toEqual([]);
        expect(second.text).toBe(first.text);
      }),
      { numRuns },
    );
  });

  it('never put a Secret value into a generated object or a result', () => {
    fc.assert(
      fc.property(validOgxServer(), (g) => {
        // The arbitrary must plant values wherever the OGXServer refers to a Secret.
        expect(g.secretValues.length).toBe(
          g.secrets.filter((s: any) => s.kind === 'Secret').reduce((n: number, s: any) => n + Object.keys(s.stringData).length, 0),
        );
        const build = renderBuild(inputOf(g));
        const krm = renderKrm(resourceList(inputOf(g)));
        const generatedText = streamOf(generated(build.items)) + streamOf(generated(readResourceList(krm.text, isRenderedObject).items.map((i) => i.object)));
        const messages = [...build.results, ...krm.results].map((r) => JSON.stringify(r)).join('\n');
        for (const value of g.secretValues) {
          expect(generatedText).not.toContain(value);
          expect(generatedText).not.toContain(Buffer.from(value).toString('base64'));
          expect(messages).not.toContain(value);
        }
      }),
      { numRuns },
    );
  });
});

describe('the OGXServer arbitrary', () => {
  it('draws every feature the properties are meant to cover', () => {
    // The generator is data-driven: make sure a filter does not silently drop a feature.
    const sample = fc.sample(validOgxServer(), { numRuns: 400, seed: 17 }).map((g) => ({ g, text: JSON.stringify(g.llsd) }));
    const features: Record<string, (g: GeneratedLlsd, text: string) => boolean> = {
      'override mode': (g) => g.llsd.spec.overrideConfig !== undefined,
      'none mode': (g) => !['providers', 'resources', 'storage', 'disabledAPIs', 'overrideConfig'].some((k) => k in g.llsd.spec),
      baseConfig: (g) => g.llsd.spec.baseConfig !== undefined,
      ...Object.fromEntries(
        ['inference', 'vectorIo', 'toolRuntime', 'files', 'batches', 'responses', 'fileProcessors'].map((api) => [
          `providers.${api}`,
          (g: GeneratedLlsd) => g.llsd.spec.providers?.[api] !== undefined,
        ]),
      ),
      'custom with settings': (_, t) => /"custom":\[[^\]]*"settings"/.test(t),
      'custom with secretRefs': (_, t) => /"custom":\[[^\]]*"secretRefs"/.test(t),
      'explicit ids': (_, t) => /"id":"/.test(t),
      'model naming a provider': (g) => (g.llsd.spec.resources?.models ?? []).some((m: any) => m.provider !== undefined),
      'redis storage': (g) => g.llsd.spec.storage?.kv?.type === 'redis',
      'sqlite storage': (g) => g.llsd.spec.storage?.kv?.type === 'sqlite',
      disabledAPIs: (g) => g.llsd.spec.disabledAPIs !== undefined,
      'network policy ingress': (g) => g.llsd.spec.network?.policy?.ingress !== undefined,
      'external access': (g) => g.llsd.spec.network?.externalAccess?.enabled === true,
      'external access off': (g) => g.llsd.spec.network?.externalAccess?.enabled === false,
      'external access with hostname and tls': (g) =>
        g.llsd.spec.network?.externalAccess?.hostname !== undefined && g.llsd.spec.network.externalAccess.tls?.secretName !== undefined,
      'disabled external access with tls': (g) =>
        g.llsd.spec.network?.externalAccess?.enabled === false && g.llsd.spec.network.externalAccess.tls !== undefined,
      'conversations disabled': (g) => (g.llsd.spec.disabledAPIs ?? []).includes('conversations'),
      'monitoring off': (g) => g.llsd.spec.monitoring?.enabled === false,
      'CA trust': (g) => g.llsd.spec.tls !== undefined,
      replicas: (g) => (g.llsd.spec.workload?.replicas ?? 0) > 1,
      autoscaling: (g) => g.llsd.spec.workload?.autoscaling !== undefined,
      'workload storage': (g) => g.llsd.spec.workload?.storage !== undefined,
      'override volumes': (g) => g.llsd.spec.workload?.overrides?.volumes !== undefined,
      postgresDemo: (g) => g.llsd.spec.distribution.name === 'postgres-demo',
      'praxis mode': (g) => praxisOn(g),
      'praxis mode off': (g) => g.llsd.spec.praxisMode?.enabled === false,
      'praxis selector': (g) => praxisOn(g) && g.llsd.spec.praxisMode.praxisSelector !== undefined,
      'praxis migration Job': (g) => praxisOn(g) && g.llsd.spec.praxisMode.migrationJob !== undefined && g.llsd.spec.praxisMode.migrationJob.enabled !== false,
      'praxis migration off': (g) => praxisOn(g) && g.llsd.spec.praxisMode.migrationJob?.enabled === false,
      'praxis with external access': (g) => praxisOn(g) && g.llsd.spec.network?.externalAccess?.enabled === true,
      'praxis distribution only': (g) => praxisOn(g) && !['providers', 'resources', 'storage', 'disabledAPIs', 'overrideConfig'].some((k) => k in g.llsd.spec),
      ...Object.fromEntries(
        ogxServerReleases().map((r) => [`release ${r}`, (g: GeneratedLlsd) => g.llsd.metadata.annotations?.['llamastack.io/release'] === r]),
      ),
    };
    const missing = Object.entries(features).filter(([, has]) => !sample.some(({ g, text }) => has(g, text))).map(([name]) => name);
    expect(missing).toEqual([]);
  });
});
