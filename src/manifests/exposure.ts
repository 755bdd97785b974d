// What an LLSD's `spec.networking.expose` and the render options ask for, read for its Ingress,
// Route and HTTPRoute: whether the server is exposed, at which host, with which TLS, and what to
// tell the user about it. `expose: {}` means exposed with defaults.
import type { FieldProblem } from '../lib/issues.js';
import type { Llsd } from '../llsd/llsd.js';
import type { RenderOptions } from '../core/render-config.js';
import { isPlainObject } from '../lib/objects.js';
import { quote } from '../lib/quote.js';
import type { Plan } from '../llsd/plan.js';
import { names } from './metadata.js';

export type ExposeKind = RenderOptions['exposeKind'];

export interface Exposure {
  kind: ExposeKind;
  /** `expose.hostname`, else `<name>-<namespace>.<ingressDomain>`; none lets the controller, router or Gateway decide. */
  host?: string;
  /** TLS at the Ingress controller or router (the `ingressTls` option), the Secret name pattern filled in. */
  tls?: { secretName?: string };
  /** The server itself serves HTTPS (`spec.networking.tls.enabled`): the backend is HTTPS. */
  backendTls: boolean;
  /** The `ingressAnnotations` option. */
  annotations: Record<string, string>;
}

/** Object names: the Ingress keeps the v1alpha1 operator's; see `exposeKind` for the others. */
export const exposeNames: Record<ExposeKind, (llsd: Llsd) => string> = {
  ingress: (llsd) => names.ingress(llsd),
  // OpenShift gives a Route without a host `<route name>-<namespace>.<router domain>`: named after
  // the LLSD, that is the same host name the `ingressDomain` option gives.
  route: (llsd) => llsd.name,
  httproute: (llsd) => names.httpRoute(llsd),
};

/** The exposure of an LLSD, or undefined when `expose` is absent or false. */
export function exposureOf(plan: Plan, options: RenderOptions): Exposure | undefined {
  const { llsd } = plan;
  const expose = llsd.spec.networking?.expose;
  if (expose !== true && !isPlainObject(expose)) return undefined;
  const exposure: Exposure = {
    kind: options.exposeKind,
    backendTls: llsd.spec.networking?.tls?.enabled === true,
    annotations: options.ingressAnnotations,
  };
  const host = (isPlainObject(expose) ? expose.hostname : undefined) ?? autoHost(llsd, options);
  if (host !== undefined) exposure.host = host;
  if (options.ingressTls) {
    const { secretName } = options.ingressTls;
    exposure.tls = secretName === undefined ? {} : { secretName: fillIn(secretName, llsd) };
  }
  return exposure;
}

/**
 * What the user should know about the exposure: errors that stop the render (a host name the API
 * server would reject, an HTTPRoute without a Gateway), warnings where the result would not work
 * as the CR means, and an info result when no host name is set.
 */
export function exposureProblems(plan: Plan, options: RenderOptions): FieldProblem[] {
  const exposure = exposureOf(plan, options);
  if (!exposure) return [];
  const { llsd } = plan;
  const problems: FieldProblem[] = [];
  const object = `the ${kindNames[exposure.kind]} ${quote(exposeNames[exposure.kind](llsd))}`;
  const hostname = isPlainObject(llsd.spec.networking?.expose) ? llsd.spec.networking.expose.hostname : undefined;

  if (hostname !== undefined && !isDnsName(hostname)) {
    problems.push({
      path: [...exposePath, 'hostname'],
      message: 'must be a DNS name such as `llama.example.com`: lower case letters, digits, `-` and `.`, with no scheme, port or path',
    });
  } else if (hostname === undefined && exposure.host !== undefined && !isDnsName(exposure.host)) {
    problems.push({
      path: exposePath,
      message: `gives the host name ${quote(exposure.host)} (\`<name>-<namespace>.<ingressDomain>\`), which is not a valid DNS name: ` +
        'its first label must be at most 63 characters. Set `spec.networking.expose.hostname`',
    });
  }
  if (exposure.kind === 'httproute' && !options.gateway) {
    problems.push({
      path: exposePath,
      message: 'is rendered as an HTTPRoute (`exposeKind: httproute`), which needs a Gateway: ' +
        'set the `gateway` option, e.g. `gateway: {name: public, namespace: gateway-system}`',
    });
  }

  if (exposure.host === undefined) problems.push({ severity: 'info', path: exposePath, message: `${object} ${withoutHost[exposure.kind](llsd)}` });

  if (exposure.tls && exposure.kind === 'httproute') {
    problems.push({
      severity: 'warning', code: 'ingress-tls-not-applied',
      path: exposePath,
      message: `the \`ingressTls\` option does not apply to ${object}: ` +
        "TLS is set on the Gateway's listener (`certificateRefs`); remove the option or set up TLS there",
    });
  }
  if (exposure.tls?.secretName !== undefined && exposure.kind === 'route') {
    problems.push({
      severity: 'warning', code: 'ingress-tls-not-applied',
      path: exposePath,
      message: `${object} terminates TLS with the router's default certificate, ` +
        `not the Secret ${quote(exposure.tls.secretName)} of the \`ingressTls\` option ` +
        '(a Route cannot refer to a Secret on every OpenShift release); use `ingressTls: {}`, or `exposeKind: ingress` for your own certificate',
    });
  }
  if (exposure.backendTls && exposure.kind === 'ingress' && !Object.keys(exposure.annotations).some(saysBackendProtocol)) {
    problems.push({
      severity: 'warning', code: 'backend-https',
      path: ['spec', 'networking', 'tls', 'enabled'],
      message: `makes the server serve HTTPS, but ${object} sends plain HTTP to it unless its controller is told otherwise: ` +
        "add the controller's annotation to the `ingressAnnotations` option (ingress-nginx: `nginx.ingress.kubernetes.io/backend-protocol: HTTPS`)",
    });
  }
  if (exposure.backendTls && exposure.kind === 'httproute') {
    problems.push({
      severity: 'warning', code: 'backend-https',
      path: ['spec', 'networking', 'tls', 'enabled'],
      message: `makes the server serve HTTPS, but the Gateway sends plain HTTP to it through ${object} ` +
        `unless a BackendTLSPolicy for the Service ${quote(names.service(llsd))} says otherwise: add one next to the LLSD`,
    });
  }
  return problems;
}

/** `<name>-<namespace>.<ingressDomain>`, or `<name>.<ingressDomain>` for an LLSD without a namespace. */
function autoHost(llsd: Llsd, options: RenderOptions): string | undefined {
  if (options.ingressDomain === undefined) return undefined;
  return `${llsd.namespace ? `${llsd.name}-${llsd.namespace}` : llsd.name}.${options.ingressDomain}`;
}

const fillIn = (pattern: string, llsd: Llsd): string => pattern.replaceAll('{name}', llsd.name).replaceAll('{namespace}', llsd.namespace ?? 'default');

/** A lower-case RFC 1123 host name: labels of at most 63 characters, 253 in all. */
export const isDnsName = (host: string): boolean =>
  host.length <= 253 && host.split('.').every((label) => label.length <= 63 && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(label));

/** An annotation that tells an ingress controller the backend protocol (ingress-nginx, AWS, HAProxy). */
export const saysBackendProtocol = (key: string): boolean => /\/(backend-protocol|secure-backends|server-ssl)$/.test(key);

const exposePath = ['spec', 'networking', 'expose'];

const kindNames: Record<ExposeKind, string> = { ingress: 'Ingress', route: 'Route', httproute: 'HTTPRoute' };

const setHost = 'set `spec.networking.expose.hostname`, or the `ingressDomain` option for host names `<name>-<namespace>.<domain>`';

const withoutHost: Record<ExposeKind, (llsd: Llsd) => string> = {
  ingress: () => `has no host, so it answers on every host name its controller serves; ${setHost}`,
  route: (llsd) => `has no host, so OpenShift gives it ${quote(`${llsd.name}-${llsd.namespace ?? '<namespace>'}.<router domain>`)}; ` +
    `for another one, ${setHost}`,
  httproute: () => `has no host names, so it takes every host name of the Gateway listener; ${setHost}`,
};
