// The NetworkPolicy `<name>-network-policy`: who may reach the server, built
// once; which peers each API admits is its own data, computed below.
//
// An LLSD's: emitted when `spec.networking.allowedFrom` is set, or for every LLSD with the
// `networkPolicy` option `on`, never with `off`. Peers as the v1alpha1 operator's, less its own
// namespace (there is no operator): pods of the LLSD's own namespace, each listed namespace,
// namespaces with any of the listed label keys, and when the server is exposed the ingress
// controller's namespace (the `ingressControllerNamespace` option; for a Route by default the
// OpenShift router namespaces, as the operator admitted them); `"*"` alone means every namespace.
// An OGXServer's: the OGX operator's policy (ogxPolicyRules), and with `externalAccess` the
// `ingressControllerNamespace` option's namespace, which the operator does not admit.
import { isDeepStrictEqual } from 'node:util';
import type { FieldProblem } from '../lib/issues.js';
import type { Llsd } from '../llsd/llsd.js';
import type { RenderOptions } from '../core/render-config.js';
import { ogxObjects } from '../catalog/catalog.js';
import { quote } from '../lib/quote.js';
import type { OgxPlan } from '../ogx/plan.js';
import { ogxMetricsPort, ogxPort, ogxPraxisEnabled, ogxSource } from '../core/ogx-workload.js';
import type { Plan } from '../llsd/plan.js';
import { serverPort } from '../core/workload.js';
import { exposureOf } from './exposure.js';
import type { Metadata, NetworkPolicy, NetworkPolicyEgressRule, NetworkPolicyIngressRule, NetworkPolicyPeer } from './k8s.js';
import { names, ogxNames } from './metadata.js';

export interface NetworkPolicyInput {
  metadata: Metadata;
  selector: Record<string, string>;
  ingress: NetworkPolicyIngressRule[];
  /** Egress rules, if any: `policyTypes` follows the rules given. */
  egress?: NetworkPolicyEgressRule[] | undefined;
}

export function renderNetworkPolicy({ metadata, selector, ingress, egress }: NetworkPolicyInput): NetworkPolicy {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata,
    spec: {
      podSelector: { matchLabels: selector },
      policyTypes: egress ? ['Ingress', 'Egress'] : ['Ingress'],
      ingress,
      ...(egress && { egress }),
    },
  };
}

/** An LLSD's ingress rules, or undefined when it gets no policy. */
export function llsdPolicyRules(plan: Plan, options: RenderOptions): NetworkPolicyIngressRule[] | undefined {
  if (!wanted(plan, options)) return undefined;
  return [{ from: peers(plan, options), ports: [{ protocol: 'TCP', port: serverPort(plan) }] }];
}

/**
 * An OGXServer's rules as its operator's policy, or undefined with `network.policy.enabled: false`
 * or the `networkPolicy` option `off`. A non-empty `policy.ingress` replaces every default rule,
 * and only then does a non-empty `policy.egress` apply; `policy.policyTypes` is never read.
 * Not upstream: with `externalAccess`, a rule of its own admits the `ingressControllerNamespace`
 * option's namespace after the user's rules (unless one of them names that peer already), so that
 * the Ingress reaches the pods; rules add up, so it admits nobody else.
 */
export function ogxPolicyRules(plan: OgxPlan, options: RenderOptions): Pick<NetworkPolicyInput, 'ingress' | 'egress'> | undefined {
  const policy = plan.server.spec.network?.policy;
  if (policy?.enabled === false || options.networkPolicy === 'off') return undefined;
  // Praxis mode: the Praxis lock-down first, the user's rules appended (src/ogx/praxis.ts).
  if (ogxPraxisEnabled(plan.server.spec)) {
    const egress = policy?.egress && policy.egress.length > 0 ? (policy.egress as NetworkPolicyEgressRule[]) : undefined;
    return { ingress: praxisIngressRules(plan, options, ogxPort(plan), ogxMetricsPort(plan)), ...(egress && { egress }) };
  }
  if (policy?.ingress && policy.ingress.length > 0) {
    const egress = policy.egress && policy.egress.length > 0 ? policy.egress : undefined;
    // As the user wrote them, checked by the OGXServer schema.
    const given = policy.ingress as NetworkPolicyIngressRule[];
    const controller = ogxControllerPeer(plan, options);
    const names = (rule: NetworkPolicyIngressRule) => (rule.from ?? []).some((peer) => isDeepStrictEqual(peer, controller));
    const admitted = controller === undefined || given.some((rule) => admitsEveryone(rule) || names(rule));
    const ingress: NetworkPolicyIngressRule[] = admitted ? given : [...given, { from: [controller], ports: [{ protocol: 'TCP', port: ogxPort(plan) }] }];
    return { ingress, ...(egress && { egress: egress as NetworkPolicyEgressRule[] }) };
  }
  return { ingress: ogxDefaultIngress(plan, options) };
}

/**
 * An OGXServer with `externalAccess` whose NetworkPolicy may shut out the ingress controller: no
 * `ingressControllerNamespace` option, and neither `openshiftRouterPeer: on` (the default policy
 * then admits the OpenShift routers) nor a user's rule that admits every namespace. The user's
 * `policy.ingress` rules are told apart: they replace the default peers.
 */
export function ogxNetworkPolicyProblems(plan: OgxPlan, options: RenderOptions): FieldProblem[] {
  const network = plan.server.spec.network;
  const rules = ogxPolicyRules(plan, options);
  // Praxis mode renders no Ingress: nothing for a controller to reach.
  if (network?.externalAccess?.enabled !== true || rules === undefined || options.ingressControllerNamespace !== undefined) return [];
  if (ogxPraxisEnabled(plan.server.spec)) return [];
  const policy = quote(ogxNames.networkPolicy(ogxSource(plan)));
  const setOption = 'set the `ingressControllerNamespace` option to its namespace (e.g. `ingress-nginx`)';
  if (network.policy?.ingress && network.policy.ingress.length > 0) {
    if (rules.ingress.some(admitsEveryone)) return [];
    return [
      {
        severity: 'warning', code: 'network-policy-ingress-peer',
        path: ['spec', 'network', 'policy', 'ingress'],
        message: `replaces the default rules, and \`externalAccess\` is on: the NetworkPolicy ${policy} admits only these rules, ` +
          `which may shut out the ingress controller: ${setOption}, and a rule admitting it on the server port is added to yours`,
      },
    ];
  }
  if (options.openshiftRouterPeer === 'on') return [];
  return [
    {
      severity: 'warning', code: 'network-policy-ingress-peer',
      path: ['spec', 'network', 'externalAccess', 'enabled'],
      message: `is on, but the NetworkPolicy ${policy} may shut out the ingress controller: ${setOption} so the policy admits it; ` +
        'on OpenShift, whose routers it admits, set the `openshiftRouterPeer` option to `on`',
    },
  ];
}

/**
 * Values the API server would reject, `allowedFrom` without a policy (`networkPolicy: off`), and
 * an exposed server whose ingress controller the policy may shut out.
 */
export function networkPolicyProblems(plan: Plan, options: RenderOptions): FieldProblem[] {
  const { llsd } = plan;
  const allowedFrom = llsd.spec.networking?.allowedFrom;
  const problems: FieldProblem[] = [];
  (allowedFrom?.namespaces ?? []).forEach((namespace, index) => {
    if (namespace !== allNamespaces && !isDnsLabel(namespace)) {
      const message = 'must be a namespace name (lower case letters, digits and `-`, at most 63 characters) or `"*"` for every namespace';
      problems.push({ path: [...allowedFromPath, 'namespaces', index], message });
    }
  });
  (allowedFrom?.labels ?? []).forEach((label, index) => {
    if (!isLabelKey(label)) {
      problems.push({ path: [...allowedFromPath, 'labels', index], message: 'must be a label key such as `llama-access` or `example.com/llama-access`' });
    }
  });
  if (allowedFrom && options.networkPolicy === 'off') {
    problems.push({
      severity: 'warning', code: 'network-policy-off',
      path: allowedFromPath,
      message: 'is set, but the `networkPolicy` option is `off`: no NetworkPolicy is rendered, so every pod of the cluster may connect',
    });
  }
  const exposure = exposureOf(plan, options);
  if (wanted(plan, options) && exposure && !allowsAll(llsd) && options.ingressControllerNamespace === undefined && exposure.kind !== 'route') {
    const forwarder = exposure.kind === 'httproute' ? "the Gateway's proxies" : 'the ingress controller';
    problems.push({
      severity: 'warning', code: 'network-policy-ingress-peer',
      path: ['spec', 'networking', 'expose'],
      message: `is on, but the NetworkPolicy ${quote(names.networkPolicy(llsd))} may shut out ${forwarder}: ` +
        'set the `ingressControllerNamespace` option to its namespace (e.g. `ingress-nginx`) so the policy admits it',
    });
  }
  return problems;
}

/** `allowedFrom: {}` counts as set: only the own namespace (and an ingress controller) may connect. */
const wanted = (plan: Plan, options: RenderOptions): boolean =>
  options.networkPolicy === 'on' || (options.networkPolicy === 'auto' && plan.llsd.spec.networking?.allowedFrom !== undefined);

function peers(plan: Plan, options: RenderOptions): NetworkPolicyPeer[] {
  const { llsd } = plan;
  if (allowsAll(llsd)) return [{ namespaceSelector: {} }];
  const allowedFrom = llsd.spec.networking?.allowedFrom ?? {};
  const namespaces = new Set(allowedFrom.namespaces ?? []);
  const peers: NetworkPolicyPeer[] = [{ podSelector: {} }];
  for (const namespace of namespaces) peers.push(namespacePeer(namespace));
  for (const label of new Set(allowedFrom.labels ?? [])) peers.push({ namespaceSelector: { matchExpressions: [{ key: label, operator: 'Exists' }] } });
  const exposure = exposureOf(plan, options);
  const controller = options.ingressControllerNamespace;
  if (exposure && controller !== undefined && !namespaces.has(controller)) peers.push(namespacePeer(controller));
  else if (exposure?.kind === 'route' && controller === undefined) peers.push({ namespaceSelector: { matchLabels: { [openShiftPolicyGroup]: 'ingress' } } });
  return peers;
}

const namespacePeer = (namespace: string): NetworkPolicyPeer => ({ namespaceSelector: { matchLabels: { [namespaceNameLabel]: namespace } } });

const allowsAll = (llsd: Llsd): boolean => llsd.spec.networking?.allowedFrom?.namespaces?.includes(allNamespaces) === true;

const isDnsLabel = (value: string): boolean => value.length <= 63 && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(value);

/** A label key: an optional DNS-subdomain prefix and `/`, then a name of at most 63 characters. */
function isLabelKey(key: string): boolean {
  const slash = key.lastIndexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const name = key.slice(slash + 1);
  const prefixOk = prefix === undefined || (prefix.length <= 253 && prefix.split('.').every(isDnsLabel));
  return prefixOk && name.length <= 63 && /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/.test(name);
}

/**
 * Own namespace, the operator's namespace and (with `spec.network`, per `openshiftRouterPeer`) the
 * OpenShift routers on the API port; with monitoring on, OpenShift monitoring on the metrics port.
 * With `externalAccess` and the `ingressControllerNamespace` option, that namespace too.
 */
function ogxDefaultIngress(plan: OgxPlan, options: RenderOptions): NetworkPolicyIngressRule[] {
  const { networkPolicy: peers } = ogxObjects();
  const from: NetworkPolicyPeer[] = [{ podSelector: {} }, { namespaceSelector: { matchLabels: { [peers.namespaceNameLabel]: options.ogxOperatorNamespace } } }];
  const router = options.openshiftRouterPeer === 'auto' ? plan.server.spec.network !== undefined : options.openshiftRouterPeer === 'on';
  if (router) from.push({ namespaceSelector: { matchLabels: peers.routerPeer } });
  // Not upstream (it admits no ingress controller): with the option set, the Ingress can reach the pods.
  const controller = ogxControllerPeer(plan, options);
  if (controller !== undefined && options.ingressControllerNamespace !== options.ogxOperatorNamespace) from.push(controller);
  const rules: NetworkPolicyIngressRule[] = [{ from, ports: [{ protocol: 'TCP', port: ogxPort(plan) }] }];
  const metrics = ogxMetricsPort(plan);
  if (metrics !== undefined) rules.push({ from: [{ namespaceSelector: { matchLabels: peers.monitoringPeer } }], ports: [{ protocol: 'TCP', port: metrics }] });
  return rules;
}

/** A rule without peers, or with the peer of every namespace, admits any ingress controller. */
const admitsEveryone = (rule: NetworkPolicyIngressRule): boolean =>
  rule.from === undefined || rule.from.length === 0 || rule.from.some((peer) => isDeepStrictEqual(peer, { namespaceSelector: {} }));

/** With `externalAccess`, the namespace of the `ingressControllerNamespace` option. */
function ogxControllerPeer(plan: OgxPlan, options: RenderOptions): NetworkPolicyPeer | undefined {
  const controller = options.ingressControllerNamespace;
  if (controller === undefined || plan.server.spec.network?.externalAccess?.enabled !== true) return undefined;
  return { namespaceSelector: { matchLabels: { [ogxObjects().networkPolicy.namespaceNameLabel]: controller } } };
}

const allNamespaces = '*';
const allowedFromPath = ['spec', 'networking', 'allowedFrom'];
const namespaceNameLabel = 'kubernetes.io/metadata.name';
/** The label OpenShift puts on the router namespaces. */
const openShiftPolicyGroup = 'network.openshift.io/policy-group';

/**
 * The NetworkPolicy's ingress in Praxis mode (networkpolicy_transformer.go): the Praxis peer
 * (`praxisSelector`, else `app: payload-processing` in `openshift-ingress`) and the operator
 * namespace on the API port, monitoring on the metrics port, then the user's `policy.ingress`
 * rules appended (they cannot remove the lock-down).
 */
function praxisIngressRules(plan: OgxPlan, options: RenderOptions, port: number, metrics: number | undefined): NetworkPolicyIngressRule[] {
  const { networkPolicy, praxis } = ogxObjects();
  const selector = plan.server.spec.praxisMode?.praxisSelector;
  const byName = (namespace: string): NetworkPolicyPeer['namespaceSelector'] => ({ matchLabels: { [networkPolicy.namespaceNameLabel]: namespace } });
  const praxisPeer: NetworkPolicyPeer = selector
    ? { podSelector: selector.podSelector as NetworkPolicyPeer['podSelector'], namespaceSelector: byName(selector.namespace) }
    : { podSelector: { matchLabels: { ...praxis.podLabels } }, namespaceSelector: byName(praxis.namespace) };
  const rules: NetworkPolicyIngressRule[] = [
    { from: [praxisPeer, { namespaceSelector: byName(options.ogxOperatorNamespace) }], ports: [{ protocol: 'TCP', port }] },
  ];
  if (metrics !== undefined) {
    rules.push({ from: [{ namespaceSelector: { matchLabels: networkPolicy.monitoringPeer } }], ports: [{ protocol: 'TCP', port: metrics }] });
  }
  const user = (plan.server.spec.network?.policy?.ingress ?? []) as NetworkPolicyIngressRule[];
  return [...rules, ...user];
}
