// OGX 1.0–1.3 (issue 16): what changes.md and <release>/image.md of the server catalog say a
// config and a Deployment for these releases need. Rendered without the startup check, so that each
// test shows one generator decision.
import { describe, expect, it } from 'vitest';
import { parseLlsd } from '../../src/llsd/llsd.js';
import { defaultRenderOptions } from '../../src/core/render-config.js';
import { generateConfig } from '../../src/llsd/generate.js';
import type { GenerateOutcome } from '../../src/core/config-file.js';
import { inventoryOf } from '../../src/krm/inventory.js';
import type { KrmObject } from '../../src/krm/item.js';
import { renderObjects } from '../../src/manifests/index.js';
import { planLlsd, type Plan } from '../../src/llsd/plan.js';
import { itemFrom, itemsFrom, llsdYaml, releaseMetadata } from '../support.js';

function plan(spec: string, release: string): Plan {
  const parsed = parseLlsd(itemFrom(llsdYaml(spec, releaseMetadata(release))).object);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const planned = planLlsd(parsed.llsd, inventoryOf([]));
  if (!planned.ok) throw new Error(JSON.stringify(planned.problems));
  return planned.plan;
}

const generate = (spec: string, release: string): GenerateOutcome => generateConfig(plan(spec, release));

function config(spec: string, release: string): Record<string, any> {
  const outcome = generate(spec, release);
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.problems));
  return outcome.config.value as Record<string, any>;
}

function deployment(spec: string, release: string): Record<string, any> {
  const p = plan(spec, release);
  const outcome = generateConfig(p);
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.problems));
  return renderObjects(p, outcome.config, defaultRenderOptions()).find((o: KrmObject) => o.kind === 'Deployment') as Record<string, any>;
}

const problemsOf = (outcome: GenerateOutcome) => outcome.problems.map((p) => ({ path: p.path.join('.'), severity: p.severity ?? 'error', message: p.message }));

describe('the Safety API, removed in 1.0', () => {
  it.each(['1.0.0', '1.3.0'])(
    'safety providers on %s are an error naming 0.8.0 (the last release with safety, from the catalog) and moderation_endpoint',
    (release) => {
      const outcome = generate('distribution: {name: starter}\nproviders:\n  safety: {provider: llama-guard}', release);
      expect(outcome.ok).toBe(false);
      expect(problemsOf(outcome)).toEqual([
        {
          path: 'spec.providers.safety',
          severity: 'error',
          message: `configures the safety API, which OGX ${release} does not have (its last release with safety is 0.8.0): moderate through the ` +
            `responses provider's \`moderation_endpoint\` (an OpenAI-compatible moderation service, with \`moderation_headers\` from 1.1) instead of ` +
            `shields; an LLSD sets it in the config.yaml it gives by \`spec.overrideConfig\`. Remove \`providers.safety\`, or render for 0.8.0 with the ` +
            `\`llamastack.io/release\` annotation`,
        },
      ]);
    },
  );

  it('shields (the safety routing table of 0.8.0) are an error at spec.resources.shields, next to the providers', () => {
    const outcome = generate(
      'distribution: {name: starter}\nproviders:\n  safety: {provider: llama-guard}\nresources:\n  shields: [meta-llama/Llama-Guard-3-8B]',
      '1.3.0',
    );
    expect(problemsOf(outcome).map((p) => p.path)).toEqual(['spec.providers.safety', 'spec.resources.shields']);
    expect(problemsOf(outcome)[1]?.message).toMatch(/^configures the safety API, which OGX 1\.3\.0 does not have .*Remove `resources\.shields`/);
  });

  it('on 0.8.0 safety providers and shields still render', () => {
    const c = config(
      'distribution: {name: starter}\nproviders:\n  inference: {provider: vllm, endpoint: "http://vllm:8000/v1"}\n  safety: {provider: ' +
        'llama-guard}\nresources:\n  models: [{name: meta-llama/Llama-Guard-3-8B, provider: vllm}]\n  shields: [meta-llama/Llama-Guard-3-8B]',
      '0.8.0',
    );
    expect(c.providers.safety.map((p: any) => p.provider_id)).toContain('llama-guard');
    expect(c.registered_resources.shields).toEqual(
      expect.arrayContaining([expect.objectContaining({ shield_id: 'meta-llama/Llama-Guard-3-8B', provider_id: 'llama-guard' })]),
    );
  });

  it('the 1.x configs have no safety, shields, server.cors or server.quota', () => {
    for (const release of ['1.0.0', '1.1.3', '1.2.2', '1.3.0']) {
      const c = config('distribution: {name: starter}', release);
      expect([c.safety, c.providers.safety, c.registered_resources.shields, c.server.cors, c.server.quota], release).toEqual([
        undefined,
        undefined,
        undefined,
        undefined,
        undefined,
      ]);
      expect(c.apis, release).not.toContain('safety');
    }
  });
});

describe('strict TLS from 1.2', () => {
  it('with the stock entrypoint (it passes --insecure) the config is left as shipped', () => {
    expect(config('distribution: {name: starter}', '1.2.2').server).toEqual({ port: 8321 });
  });

  it.each([
    ['command', 'overrides: {command: [ogx, stack, run, /etc/llama-stack/config.yaml]}'],
    ['args', 'overrides: {args: ["--enable-ui"]}'],
  ])('an own %s gets `server.insecure: true` on 1.2.2 and 1.3.0, not on 1.1.3 (no such key there)', (_, overrides) => {
    const spec = `distribution: {name: starter}\nworkload:\n  ${overrides}`;
    expect(config(spec, '1.2.2').server.insecure).toBe(true);
    expect(config(spec, '1.3.0').server.insecure).toBe(true);
    expect(config(spec, '1.1.3').server.insecure).toBeUndefined();
    const outcome = generate(spec, '1.3.0');
    expect(outcome.ok ? outcome.problems.filter((p) => p.severity === 'info') : outcome.problems).toEqual([
      {
        severity: 'info',
        path: ['spec', 'workload', 'overrides', _],
        message: `OGX 1.3.0 refuses to start without TLS unless told it may, and the container ${_} is the LLSD's own, so the generated config.yaml ` +
          `sets \`server.insecure: true\` (enable \`networking.tls\` to serve TLS instead)`,
      },
    ]);
  });

  it('TLS with an own command: the certificate files, no insecure, and an info that the ciphers are FIPS only', () => {
    const outcome = generate(
      'distribution: {name: starter}\nnetworking:\n  tls: {enabled: true, secretName: tls}\nworkload:\n  overrides: {command: [ogx, stack, run, ' +
        '/etc/llama-stack/config.yaml]}',
      '1.2.2',
    );
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.problems));
    expect(outcome.config.value.server).toEqual({ port: 8321, tls_certfile: '/etc/llama-stack-tls/tls.crt', tls_keyfile: '/etc/llama-stack-tls/tls.key' });
    expect(problemsOf(outcome)).toEqual([
      {
        path: 'spec.workload.overrides.command',
        severity: 'info',
        message:
          'replaces the image entrypoint (ogx-entrypoint.sh, which passes `--insecure`): OGX 1.2.2 then serves TLS with its ciphers forced to a ' +
            'FIPS list (`server.tls_config.ciphers`), and `verify_tls: false` in `server.auth` stops it; clients must offer one of those ciphers',
      },
    ]);
  });

  it('TLS with the stock entrypoint: the certificate files only, no note', () => {
    const outcome = generate('distribution: {name: starter}\nnetworking:\n  tls: {enabled: true, secretName: tls}', '1.3.0');
    expect(outcome.problems).toEqual([]);
    expect(outcome.ok && outcome.config.value.server).toEqual({
      port: 8321,
      tls_certfile: '/etc/llama-stack-tls/tls.crt',
      tls_keyfile: '/etc/llama-stack-tls/tls.key',
    });
  });
});

describe('strict TLS with an overrideConfig', () => {
  const overridden = (configYaml: string, release: string, command = '[ogx, stack, run, /etc/llama-stack/config.yaml]'): GenerateOutcome => {
    const cm = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: mine, namespace: ai}\ndata:\n  config.yaml: |\n${configYaml.replace(/^/gm, '    ')}\n`;
    const parsed = parseLlsd(
      itemFrom(
        llsdYaml(
          `distribution: {name: starter}\noverrideConfig: {configMapName: mine}\nworkload:\n  overrides: {command: ${command}}`,
          releaseMetadata(release),
        ),
      ).object,
    );
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    const planned = planLlsd(parsed.llsd, inventoryOf(itemsFrom(cm)));
    if (!planned.ok) throw new Error(JSON.stringify(planned.problems));
    return generateConfig(planned.plan);
  };
  const base = 'version: 2\ndistro_name: mine\nproviders: {}';

  it('an own command and a config with neither certificates nor `server.insecure` is an error on 1.2+ (the server exits), not on 1.1', () => {
    expect(problemsOf(overridden(base, '1.2.2'))).toEqual([
      {
        path: 'spec.workload.overrides.command',
        severity: 'error',
        message:
          'replaces the image entrypoint (ogx-entrypoint.sh), which passes `--insecure`: OGX 1.2.2 then exits ("TLS required") because the ' +
            'config.yaml of the ConfigMap "mine" (overrideConfig) sets neither `server.tls_certfile`/`tls_keyfile` nor `server.insecure: true`. Add ' +
            '`server: {insecure: true}` there, pass `--insecure` in the command, or enable `networking.tls`',
      },
    ]);
    expect(overridden(`${base}\nserver: {insecure: true}`, '1.2.2').problems).toEqual([]);
    expect(overridden(base, '1.1.3').problems).toEqual([]);
  });

  it('a command that passes --insecure, or is the stock entrypoint, needs nothing more (attacker probe)', () => {
    expect(overridden(base, '1.3.0', '[ogx, stack, run, --insecure, /etc/llama-stack/config.yaml]').problems).toEqual([]);
    expect(overridden(base, '1.3.0', '[/usr/local/bin/ogx-entrypoint.sh]').problems).toEqual([]);
    expect(problemsOf(overridden(base, '1.3.0', '[/usr/local/bin/my-entrypoint.sh]')).map((p) => p.path)).toEqual(['spec.workload.overrides.command']);
  });
});

describe('port and workers', () => {
  it('`networking.port` goes to server.port where the release reads it (1.1+), and OGX_PORT says the same', () => {
    expect(config('distribution: {name: starter}\nnetworking: {port: 9000}', '1.1.3').server.port).toBe(9000);
    expect(config('distribution: {name: starter}\nnetworking: {port: 9000}', '1.0.0').server.port).toBe(8321);
    const env = deployment('distribution: {name: starter}\nnetworking: {port: 9000}', '1.1.3').spec.template.spec.containers[0].env;
    expect(env).toContainEqual({ name: 'OGX_PORT', value: '9000' });
  });

  it('OGX_WORKERS in overrides.env that differs from workload.workers is a warning on 1.2+, where it overrides server.workers', () => {
    const spec = 'distribution: {name: starter}\nworkload:\n  workers: 2\n  overrides:\n    env: [{name: OGX_WORKERS, value: "4"}]';
    expect(problemsOf(generate(spec, '1.2.2'))).toEqual([
      {
        path: 'spec.workload.overrides.env.0',
        severity: 'warning',
        message:
          'sets OGX_WORKERS, which overrides `server.workers: 2` (`workload.workers`) in OGX 1.2.2, while the CPU requests follow ' +
            '`workload.workers`: remove OGX_WORKERS and set `workload.workers` only',
      },
    ]);
    expect(generate(spec, '1.1.3').problems).toEqual([]);
    expect(generate(spec.replace('"4"', '"2"'), '1.2.2').problems).toEqual([]);
  });
});

describe('the image user from 1.3', () => {
  it('1.3.0 runs as USER 1001 with HOME=/: runAsNonRoot, state volume and OGX_CONFIG_DIR at /.ogx', () => {
    const pod = deployment('distribution: {name: starter}\nworkload:\n  storage: {}', '1.3.0').spec.template.spec;
    // On the server container only: external providers' init containers run the user's images.
    expect(pod.securityContext).toEqual({ fsGroup: 1001, seccompProfile: { type: 'RuntimeDefault' } });
    expect(pod.containers[0].securityContext).toEqual({ allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, runAsNonRoot: true });
    expect(pod.containers[0].volumeMounts).toContainEqual({ name: 'lls-storage', mountPath: '/.ogx' });
    expect(pod.containers[0].env).toContainEqual({ name: 'OGX_CONFIG_DIR', value: '/.ogx' });
    expect(pod.containers[0].image).toBe('docker.io/ogxai/distribution-starter:1.3.0');
  });

  it('1.2.2 and older images run as root: the security contexts are unchanged', () => {
    const pod = deployment('distribution: {name: starter}', '1.2.2').spec.template.spec;
    expect(pod.securityContext).toEqual({ fsGroup: 1001, seccompProfile: { type: 'RuntimeDefault' } });
    expect(pod.containers[0].securityContext).toEqual({ allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
  });
});

describe('storage on 1.x: every store of the release on the LLSD backends', () => {
  const refs = (value: unknown, path = ''): Array<[string, string]> => {
    if (Array.isArray(value)) return value.flatMap((v, i) => refs(v, `${path}[${i}]`));
    if (value === null || typeof value !== 'object') return [];
    const object = value as Record<string, unknown>;
    const own: Array<[string, string]> = typeof object.backend === 'string' ? [[path, object.backend]] : [];
    return [...own, ...Object.entries(object).flatMap(([k, v]) => refs(v, path ? `${path}.${k}` : k))];
  };

  it.each(['1.0.0', '1.1.3', '1.3.0'])(
    '%s: batches sqlstore, prompts/connectors (SQL), messages kvstore, skills persistence name a backend of their family',
    (release) => {
      const c = config(
        'distribution: {name: starter}\nstorage:\n  kv: {type: redis, endpoint: "redis://redis:6379"}\n  sql: {type: postgres, host: pg, database: ogx, ' +
          'user: ogx, password: {name: pg, key: password}}',
        release,
      );
      expect(c.storage.backends.kv_default).toEqual({ type: 'kv_redis', host: 'redis', port: 6379 });
      expect(c.storage.backends.sql_default).toMatchObject({ type: 'sql_postgres', host: 'pg', db: 'ogx' });
      const found = Object.fromEntries(refs(c));
      expect(found['providers.batches[0].config.sqlstore']).toBe('sql_default');
      expect([found['storage.stores.prompts'], found['storage.stores.connectors']]).toEqual(['sql_default', 'sql_default']);
      if (release !== '1.0.0')
        expect([found['providers.messages[0].config.kvstore'], found['providers.skills[0].config.persistence']]).toEqual(['kv_default', 'kv_default']);
      for (const [path, backend] of Object.entries(found)) expect(Object.keys(c.storage.backends), path).toContain(backend);
    },
  );
});
