// Options of a render (docs/render-options.md): the same keys as `data` of a ConfigMap functionConfig (kpt
// `configMap:` or `-- key=value`) and as `spec` of a `fn.llamastack.io/v1alpha1` RenderConfig.
import { parseReleaseNumber, type ReleaseNumber } from '../lib/release-number.js';
import { checkOverrides, mergeCatalog, type DistributionOverride } from '../catalog/distributions.js';
import { reservedKeys } from '../lib/reserved-keys.js';
import { formatFieldPath } from '../krm/item.js';
import { parseYaml11, parseYamlStream } from '../krm/yaml.js';
import { isPlainObject } from '../lib/objects.js';
import { code, listOf } from '../lib/quote.js';
import type { WarningCode } from '../krm/result.js';
import { codesFromText, isWarningCode, unknownCodeMessage } from '../krm/silence.js';
import { described, lazily, z } from '../lib/zod.js';

export const renderConfigApiVersion = 'fn.llamastack.io/v1alpha1';
export const renderConfigKind = 'RenderConfig';

/**
 * A mapping option; as ConfigMap data (where every value is a string) a YAML string holding the
 * mapping, read with the YAML 1.2 core schema as kpt reads the package.
 */
function yamlMapping<T extends z.ZodMiniType>(schema: T, what: string) {
  const fromText = z.pipe(
    z.string(),
    z.transform((text, ctx) => {
      const parsed = parseYamlStream(text);
      const problem = parsed.problems[0];
      if (problem) return rejectText(ctx, `is not valid YAML${problem.line ? ` (line ${problem.line})` : ''}: ${problem.message}`);
      if (parsed.documents.length > 1) return rejectText(ctx, 'must hold a single YAML document');
      const value = parsed.documents[0]?.value ?? {};
      if (isPlainObject(value)) return value as unknown;
      return rejectText(ctx, `must be a YAML mapping: ${what}`);
    }),
  );
  return z.union([z.pipe(fromText, schema), schema]);
}

const dnsLabelPattern = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const dnsSubdomainPattern = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const dnsLabel = (example: string) =>
  z
    .string()
    .check(z.maxLength(63), z.regex(dnsLabelPattern, { error: `must be a Kubernetes name such as \`${example}\` (lower case letters, digits and \`-\`)` }));
const dnsSubdomain = (example: string) =>
  z
    .string()
    .check(
      z.maxLength(253),
      z.regex(dnsSubdomainPattern, { error: `must be a DNS name such as \`${example}\` (lower case letters, digits, \`-\` and \`.\`)` }),
    );

/**
 * The schemas, built on first use: a render given no options takes their defaults from the build
 * (`defaultRenderOptions`) and builds none of them.
 */
function defineSchemas() {
  /** A boolean that a ConfigMap can also give as the string "true" or "false". */
  const flag = z.union([z.boolean(), z.pipe(z.enum(['true', 'false']), z.transform((v) => v === 'true'))]);
  /** `auto` (the default), `on` or `off`; a boolean is read as `on` or `off`. */
  const autoOnOff = () => z._default(z.union([z.enum(['auto', 'on', 'off']), z.pipe(z.boolean(), z.transform((on) => (on ? 'on' : 'off')))]), 'auto');

  const distributionOverride = described(
    z.strictObject({
      image: described(
        z.optional(
          z.string().check(z.regex(/^\S+$/, { error: 'must be an image reference such as `registry.internal/ogxai/distribution-starter:<release>`' })),
        ),
        'The image to run: a mirror of the shipped one, or the image of a distribution you add.',
      ),
      release: described(
        z.optional(
          // Read as the annotation is (docs/releases.md): `v1.2.2` is 1.2.2 and `1.2.4+rhaiv.0` 1.2.4, the release the catalog keys.
          z.pipe(
            z.string().check(
              z.refine((text) => parseReleaseNumber(text) !== undefined, {
                error: 'must be a llama-stack release, MAJOR.MINOR.PATCH with an optional leading `v` or `+build` (quoted, so YAML keeps it a string)',
              }),
            ),
            z.transform((text) => (parseReleaseNumber(text) as ReleaseNumber).release),
          ),
        ),
        'The llama-stack release this entry is for, and the default release of the distribution from now on. Default: the image tag when it is a release, ' +
          'else the current default release.',
      ),
      config: described(
        z.optional(z.custom<Record<string, unknown>>(isPlainObject, { error: 'must be a mapping: the base config.yaml of this distribution and release' })),
        'The base config.yaml, inline (`version: 2`).',
      ),
      configPath: described(
        z.optional(z.string().check(z.minLength(1))),
        'The base config.yaml as a file, relative to the file holding the RenderConfig (`llsd-render build` and `validate` only).',
      ),
    }),
    'A named distribution added or overridden.',
  );

  /**
   * RenderConfig `distributions`: named distributions added or overridden (docs/render-options.md). As ConfigMap
   * data the value is a YAML string. The parsed option is the whole catalog: the shipped
   * distributions with these entries laid over them.
   */
  const distributionMap = z.record(
    z
      .string()
      .check(z.regex(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/, { error: 'must be a distribution name such as `starter` (lower case letters, digits, `-` and `.`)' })),
    distributionOverride,
  );
  const distributionsFromText = z.pipe(
    z.string(),
    z.transform((text, ctx) => {
      const parsed = parseYaml11(text);
      if (parsed.problem) return rejectText(ctx, `is not valid YAML${parsed.problem.line ? ` (line ${parsed.problem.line})` : ''}: ${parsed.problem.message}`);
      // `__proto__` would be dropped on the way into the map, silently: refused, as in a CR.
      const reserved = reservedKeys(parsed.value)[0];
      if (reserved) return rejectText(ctx, `holds the key \`${formatFieldPath(reserved.path)}\`, which ${reserved.message}`);
      if (parsed.value === null || isPlainObject(parsed.value)) return parsed.value ?? {};
      return rejectText(ctx, 'must be a YAML mapping from distribution names to `{image, release, config | configPath}`');
    }),
  );
  const distributionsOption = described(
    z.pipe(
      z.optional(
        z.union([z.pipe(distributionsFromText, distributionMap), distributionMap]).check(
          z.superRefine((overrides, ctx) => {
            for (const problem of checkOverrides(overrides as Record<string, DistributionOverride>)) {
              ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message, input: overrides });
            }
          }),
        ),
      ),
      z.transform((overrides) => mergeCatalog(overrides as Record<string, DistributionOverride> | undefined)),
    ),
    'Named distributions to add or override, by name: `{image, release, config | configPath}`; e.g. an image mirror `{starter: {image: ' +
      'registry.internal/ogxai/distribution-starter:<release>}}`. As ConfigMap data, a YAML string.',
  );

  /** An annotation key: an optional DNS-subdomain prefix and `/`, then a name of at most 63 characters. */
  const annotationKey = z.string().check(
    z.refine(
      (key) => {
        const slash = key.lastIndexOf('/');
        const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
        const name = key.slice(slash + 1);
        return (
          (prefix === undefined || (prefix.length <= 253 && dnsSubdomainPattern.test(prefix))) &&
          name.length <= 63 &&
          /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/.test(name)
        );
      },
      {
        error:
          'is not an annotation key: write one such as `nginx.ingress.kubernetes.io/proxy-body-size` (an optional DNS prefix and `/`, then at most 63 ' +
            'letters, digits, `-`, `_` and `.`)',
      },
    ),
  );
  const ownAnnotationKey = z.string().check(
    z.refine((key) => !key.startsWith('llamastack.io/'), {
      error: "uses the `llamastack.io/` prefix, which is llsd-render's own; use another key",
    }),
  );
  const annotationMap = z.record(z.pipe(annotationKey, ownAnnotationKey), z.string());

  const gatewayRef = described(
    z.strictObject({
      name: described(z.string().check(z.minLength(1), z.maxLength(253)), 'Name of the Gateway.'),
      namespace: described(z.optional(dnsLabel('gateway-system')), "Namespace of the Gateway; default: the LLSD's namespace."),
      sectionName: described(z.optional(dnsSubdomain('https')), 'A listener of the Gateway to attach to; default: every listener that allows the route.'),
    }),
    'The Gateway an HTTPRoute attaches to (its `parentRefs` entry).',
  );

  /** A Secret name, or a pattern with `{name}` and `{namespace}`; any other placeholder is an error. */
  const secretNamePattern = z.string().check(
    z.minLength(1),
    z.superRefine((pattern, ctx) => {
      const unknown = [...pattern.matchAll(/\{([^}]*)\}/g)].map((m) => m[0]).filter((p) => p !== '{name}' && p !== '{namespace}');
      if (unknown.length > 0) {
        ctx.addIssue({
          code: 'custom',
          message: `may use only the placeholders \`{name}\` and \`{namespace}\`, not ${listOf(unknown, { each: (p) => code(p) })}`,
          input: pattern,
        });
      } else if (!dnsSubdomainPattern.test(pattern.replaceAll('{name}', 'a').replaceAll('{namespace}', 'a'))) {
        ctx.addIssue({
          code: 'custom',
          message:
            'must give a Secret name such as `{name}-tls` or `wildcard-tls` (lower case letters, digits, `-`, `.` and the placeholders `{name}` and ' +
              '`{namespace}`)',
          input: pattern,
        });
      }
    }),
  );

  const ingressTlsSpec = described(
    z.strictObject({
      secretName: described(
        z.optional(secretNamePattern),
        "The kubernetes.io/tls Secret with the certificate for the host, in the LLSD's namespace: a name, or a pattern with `{name}` and `{namespace}` of " +
          "the LLSD (`default` without one), e.g. `{name}-tls`, which cert-manager can fill. Default: none, the controller's default certificate. Ingress " +
          "only.",
      ),
    }),
    'TLS at the Ingress controller or router.',
  );

  /** A registry host as references name it: `quay.io`, `registry.internal:5000`, `127.0.0.1:5000`. */
  const registryHost = z.string().check(
    z.regex(/^([A-Za-z0-9]([-A-Za-z0-9.]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?$/, {
      error: 'must be a registry host such as `registry.internal:5000` (a name or address and an optional port, no scheme)',
    }),
  );
  const mirrorLocation = z.string().check(
    z.regex(/^([A-Za-z0-9]([-A-Za-z0-9.]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?(\/[a-z0-9]+([._-][a-z0-9]+)*)*$/, {
      error: 'must be a registry host with an optional repository prefix, such as `mirror.internal:5000` or `mirror.internal/dockerhub`',
    }),
  );

  const registrySpec = described(
    z.strictObject({
      offline: described(
        z._default(flag, false),
        'Read image configs only from the cache; never contact a registry. Default false. `llsd-render build --offline` sets it too.',
      ),
      cacheDir: described(
        z.optional(z.string().check(z.minLength(1))),
        'Directory of the cache of configs read from images, keyed by manifest digest; a relative path is relative to the working directory. Default ' +
          '`$XDG_CACHE_HOME/llsd-render`, else `~/.cache/llsd-render`.',
      ),
      mirrors: described(
        z._default(z.record(registryHost, z.array(mirrorLocation).check(z.minLength(1))), {}),
        'Mirrors tried in order before a registry, by registry host: `{docker.io: [mirror.internal:5000]}` (air-gapped clusters). Default none.',
      ),
      insecure: described(z._default(z.array(registryHost), []), 'Registry hosts spoken to over plain HTTP; every other host over HTTPS. Default none.'),
      platform: described(
        z._default(
          z
            .string()
            .check(z.regex(/^[a-z0-9]+\/[a-z0-9_]+(\/[a-z0-9]+)?$/, { error: 'must be `os/architecture[/variant]`, such as `linux/amd64` or `linux/arm64`' })),
          'linux/amd64',
        ),
        'The entry of a multi-platform image whose labels are read. Default `linux/amd64`.',
      ),
      timeoutSeconds: described(
        z._default(z.number().check(z.positive(), z.maximum(3600)), 30),
        'How long a registry may take to answer a request, and to pause while sending a body (a large layer may take longer as long as it keeps arriving). ' +
          'Default 30.',
      ),
      deadlineSeconds: described(
        z._default(z.number().check(z.positive(), z.maximum(3600)), 60),
        'How long reading the labels of one image may take in all, mirrors, tokens and layer included: a registry that keeps sending slowly, each pause ' +
          'inside `timeoutSeconds`, is stopped here with an error naming the image. Default 60.',
      ),
      pinDigest: described(
        z._default(flag, false),
        'Run a `spec.distribution.image` whose config came from its labels by the digest it resolved to (`repo:tag@sha256:…`), so the pods run exactly the ' +
          'image the config was read from. Default false.',
      ),
    }),
    'Reading base configs from the labels of `spec.distribution.image` (FR-027): cache, offline mode, mirrors, plain-HTTP hosts.',
  );

  /** A warning code; an unknown one is an error that suggests the nearest. */
  const warningCode = z.pipe(
    z.string().check(
      z.superRefine((text, ctx) => {
        if (!isWarningCode(text)) ctx.addIssue({ code: 'custom', message: unknownCodeMessage(text), input: text });
      }),
    ),
    z.transform((text) => text as WarningCode),
  );
  const codeList = z.array(warningCode);
  /** As ConfigMap data: `a, b`, `a b`, `[a, b]` or a YAML list, each code checked as in a list. */
  const codesFromData = z.pipe(
    z.string(),
    z.transform((text) => {
      const { codes, unknown } = codesFromText(text);
      return [...codes, ...unknown];
    }),
  );

  const renderOptionsSchema = z.strictObject({
    distributions: distributionsOption,
    exposeKind: described(
      z._default(z.enum(['ingress', 'route', 'httproute']), 'ingress'),
      'What `spec.networking.expose` renders: `ingress` (default; networking.k8s.io/v1 Ingress `<name>-ingress`), `route` (OpenShift route.openshift.io/v1 ' +
        'Route `<name>`) or `httproute` (Gateway API gateway.networking.k8s.io/v1 HTTPRoute `<name>-httproute`, attached to the `gateway` option).',
    ),
    gateway: described(
      z.optional(yamlMapping(gatewayRef, '`{name, namespace, sectionName}` of the Gateway')),
      'The Gateway that HTTPRoutes attach to: `{name, namespace, sectionName}`; required when `exposeKind` is `httproute` and an LLSD is exposed. As ' +
        'ConfigMap data, a YAML string.',
    ),
    gitopsAnnotations: described(
      z._default(flag, true),
      'Add `kustomize.toolkit.fluxcd.io/substitute: disabled` to ConfigMaps holding `${` and Argo CD `PruneLast=true` to generated ConfigMaps. Default true.',
    ),
    ingressAnnotations: described(
      z._default(yamlMapping(annotationMap, 'annotation keys to string values'), {}),
      'Annotations added to the Ingress, Route or HTTPRoute, e.g. `{cert-manager.io/cluster-issuer: letsencrypt}`; values are strings. Default none. As ' +
        'ConfigMap data, a YAML string.',
    ),
    ingressClass: described(
      z.optional(dnsSubdomain('nginx')),
      "`spec.ingressClassName` of the Ingress. Default: none, the cluster's default IngressClass. Ingress only.",
    ),
    ingressControllerNamespace: described(
      z.optional(dnsLabel('ingress-nginx')),
      'Namespace of the ingress controller (or Gateway proxies) that forwards to exposed servers; the NetworkPolicy of an exposed LLSD, and the default one ' +
        'of an OGXServer with `network.externalAccess` (which the OGX operator leaves closed to it), admit it. Default: none (a warning when an exposed ' +
        'LLSD has a NetworkPolicy), and with `exposeKind: route` the OpenShift router namespaces (label `network.openshift.io/policy-group: ingress`).',
    ),
    ingressDomain: described(
      z.optional(dnsSubdomain('apps.example.com')),
      "Domain for host names of exposed LLSDs without `expose.hostname`: `<name>-<namespace>.<domain>` (`<name>.<domain>` without a namespace). Default: " +
        "none; such an Ingress or HTTPRoute has no host, a Route gets the router's.",
    ),
    ingressTls: described(
      z.optional(yamlMapping(ingressTlsSpec, '`{}` or `{secretName: …}`')),
      'Serve exposed LLSDs over HTTPS at the Ingress controller or router: `{}` (its default certificate) or `{secretName: <name or pattern>}` (an Ingress ' +
        '`tls` entry for the host). A Route redirects HTTP and terminates TLS at the edge with the router certificate (`reencrypt` when the server serves ' +
        'HTTPS itself; without this option such a Route is `passthrough`). Default: none (plain HTTP). With `httproute`, TLS is set on the Gateway ' +
        'listener instead. As ConfigMap data, a YAML string.',
    ),
    ogxOperatorNamespace: described(
      z._default(dnsLabel('ogx-k8s-operator-system'), 'ogx-k8s-operator-system'),
      "The namespace the default NetworkPolicy of an OGXServer admits besides the server's own, as the OGX operator admits its own namespace (env " +
        "OPERATOR_NAMESPACE, else its ServiceAccount's). Default `ogx-k8s-operator-system`, where the operator's release manifest installs it.",
    ),
    openshiftRouterPeer: described(
      autoOnOff(),
      'Whether the default NetworkPolicy of an OGXServer admits the OpenShift router namespaces (label `network.openshift.io/policy-group: ingress`): ' +
        '`auto` (default, as the OGX operator: when `spec.network` is set, even `{}`), `on` (always) or `off` (never; e.g. a cluster without OpenShift ' +
        'routers).',
    ),
    openshiftAnyuid: described(
      z._default(flag, false),
      "On OpenShift, bind the server's ServiceAccount to the `system:openshift:scc:anyuid` ClusterRole with a RoleBinding `<name>-rb`, as the v1alpha1 " +
        "operator does (the llama-stack images run as root); for an OGXServer, the ServiceAccount `<name>-sa`, as the OGX operator does wherever that " +
        "ClusterRole exists. Default false: the ClusterRole exists only on OpenShift.",
    ),
    networkPolicy: described(
      autoOnOff(),
      'NetworkPolicy `<name>-network-policy`: `auto` (default: when `spec.networking.allowedFrom` is set), `on` (for every LLSD; without `allowedFrom` only ' +
        'the own namespace may connect) or `off` (never). For an OGXServer, `spec.network.policy.enabled` decides (default on, as upstream) unless this is ' +
        '`off`.',
    ),
    monitoringCrds: described(
      z._default(flag, true),
      'The cluster has the prometheus-operator CRDs `servicemonitors.monitoring.coreos.com` and `prometheusrules.monitoring.coreos.com`: an OGXServer with ' +
        'monitoring on (its default) gets a ServiceMonitor `<name>-service-monitor` and a PrometheusRule `<name>-prometheus-rules`. The OGX operator looks ' +
        'for both CRDs and creates neither when one is missing. Default true (monitoring is on by default upstream); set false for a cluster without them, ' +
        'where applying those kinds fails.',
    ),
    outputPath: described(
      z._default(z.string().check(z.minLength(1)), '{dir}/{name}.generated.yaml'),
      'kpt file for the objects generated from an LLSD, relative to the package: `{dir}` is the directory of the LLSD file, `{name}` and `{namespace}` its ' +
        'name and namespace. Default `{dir}/{name}.generated.yaml`.',
    ),
    registry: described(
      z._default(
        yamlMapping(registrySpec, '`{offline, cacheDir, mirrors, insecure, platform, timeoutSeconds, deadlineSeconds, pinDigest}`'),
        registrySpec.parse({}),
      ),
      'Reading the base config of a `spec.distribution.image` from its OCI labels: `{offline, cacheDir, mirrors, insecure, platform, timeoutSeconds, ' +
        'deadlineSeconds, pinDigest}`. As ConfigMap data, a YAML string.',
    ),
    secretPolicy: described(
      z._default(z.enum(['warn', 'strict', 'off']), 'warn'),
      'What a referenced Secret missing from the input gives: `warn` (default; Secrets are often created outside git), `strict` (an error) or `off`. A ' +
        'SealedSecret or ExternalSecret that creates it counts as present. A key missing from a Secret that is in the input is an error, a warning with `off`.',
    ),
    silence: described(
      z._default(z.union([z.pipe(codesFromData, codeList), codeList]), []),
      'Warning codes not to report for any LLSD or OGXServer of the render, e.g. `[numeric-secret-value]` (every code, what it means and what to do: ' +
        'docs/warnings.md). One LLSD or OGXServer silences its own with the annotation `llamastack.io/silence: "code, code"`. Errors cannot be silenced. ' +
        'Default none. As ConfigMap data, a list such as `numeric-secret-value, secret-not-in-input`.',
    ),
  });
  // Strict: an option written beside `spec:` instead of under it is refused, not silently dropped.
  const renderConfigSchema = z.strictObject({
    apiVersion: z.literal(renderConfigApiVersion),
    kind: z.literal(renderConfigKind),
    metadata: z.looseObject({ name: z.string() }),
    spec: z.optional(renderOptionsSchema),
  });
  return { renderOptionsSchema, renderConfigSchema };
}

export const renderConfigSchemas = lazily(defineSchemas);

type Schemas = ReturnType<typeof defineSchemas>;
export type RenderOptions = z.output<Schemas['renderOptionsSchema']>;
export type RenderOptionsInput = z.input<Schemas['renderOptionsSchema']>;
export type RegistryOptions = RenderOptions['registry'];

/** The options of a render given none: every default, and the shipped distributions. */
export function defaultRenderOptions(): RenderOptions {
  return { distributions: mergeCatalog(undefined), ...structuredClone(optionDefaults()) };
}

/** `options` parsed, with their defaults; the schema is built only when some option is given. */
export function parseRenderOptions(options: RenderOptionsInput): z.core.util.SafeParseResult<RenderOptions> {
  // Only a mapping with no keys is "no options": `[]`, `""` or `0` (ConfigMap `data: []`) are for zod to refuse.
  if (isPlainObject(options) && Object.keys(options).length === 0) return { success: true, data: defaultRenderOptions() };
  return renderConfigSchemas().renderOptionsSchema.safeParse(options, { reportInput: true });
}

/** Every default but the distributions (the catalog's, merged afresh for each caller), from the schema once. */
const optionDefaults = lazily(() => {
  const { distributions: _catalog, ...defaults } = renderConfigSchemas().renderOptionsSchema.parse({});
  return defaults;
});

/** Ends a transform of option text with a problem (a zod/mini transform has no `ctx.addIssue`). */
function rejectText(ctx: z.core.ParsePayload, message: string): never {
  ctx.issues.push({ code: 'custom', message, input: ctx.value });
  return z.NEVER;
}
