// The Kubernetes OpenAPI schemas of the kinds llsd-render writes or passes through, from
// `kubernetes-models` (JSON schemas generated from the OpenAPI spec, compiled with ajv), shared
// by the golden check (test/unit/k8s-schema.test.ts) and the property tests.
import * as apps from 'kubernetes-models/apps/v1';
import * as autoscaling from 'kubernetes-models/autoscaling/v2';
import * as batch from 'kubernetes-models/batch/v1';
import * as core from 'kubernetes-models/v1';
import * as networking from 'kubernetes-models/networking.k8s.io/v1';
import * as policy from 'kubernetes-models/policy/v1';
import * as rbac from 'kubernetes-models/rbac.authorization.k8s.io/v1';
import * as gateway from '@kubernetes-models/gateway-api/gateway.networking.k8s.io/v1';

export interface Model {
  apiVersion: string;
  kind: string;
  new (data: object): { validate(): void };
}

/** The kubernetes-models modules of the API groups llsd-render writes or passes through. */
export const modules: Record<string, Record<string, unknown>> = {
  v1: core,
  'apps/v1': apps,
  'autoscaling/v2': autoscaling,
  'batch/v1': batch,
  'policy/v1': policy,
  'networking.k8s.io/v1': networking,
  'rbac.authorization.k8s.io/v1': rbac,
  // Gateway API 0.5.1: the last release of these models that runs on Node 20; it has v1 HTTPRoute.
  'gateway.networking.k8s.io/v1': gateway,
};

/** Kinds without a schema in kubernetes-models, each with the reason; nothing else is skipped. */
export const withoutSchema: Record<string, string> = {
  'llamastack.io/v1alpha2/LlamaStackDistribution': 'our own CRD: checked by its zod schema (test/unit/llsd.test.ts, test/invalid) and the CRD tests',
  'llamastack.io/v1alpha1/LlamaStackDistribution': "the operator's CRD: checked by its zod schema (src/llsd/llsd-v1alpha1.ts)",
  'ogx.io/v1beta1/OGXServer':
    "the OGX operator's CRD (an input, passed through): checked by its zod schema from the CRD (src/ogx/ogxserver.ts, test/unit/ogxserver-schema.test.ts)",
  'kpt.dev/v1/Kptfile': 'a kpt package file passed through unchanged, never applied to a cluster',
  'fn.llamastack.io/v1alpha1/RenderConfig': 'our own function config, local to kpt, never applied',
  'route.openshift.io/v1/Route': 'OpenShift: kubernetes-models has no OpenShift models',
  'monitoring.coreos.com/v1/ServiceMonitor':
    'prometheus-operator CRD without kubernetes-models models: its shape is asserted field by field in test/unit/ogx-objects.test.ts',
  'monitoring.coreos.com/v1/PrometheusRule':
    'prometheus-operator CRD without kubernetes-models models: its shape is asserted field by field in test/unit/ogx-objects.test.ts',
};

export const keyOf = (object: { apiVersion: string; kind: string }): string => `${object.apiVersion}/${object.kind}`;

export function modelOf(apiVersion: string, kind: string): Model | undefined {
  const candidate = Object.hasOwn(modules, apiVersion) ? (modules[apiVersion] as Record<string, unknown>)[kind] : undefined;
  const model = candidate as Model | undefined;
  return typeof model === 'function' && model.apiVersion === apiVersion && model.kind === kind ? model : undefined;
}

/** Why `object` fails the schema of its kind, or undefined when it passes (or is listed in withoutSchema). */
export function schemaProblem(object: { apiVersion: string; kind: string }): string | undefined {
  const model = modelOf(object.apiVersion, object.kind);
  if (!model) return Object.hasOwn(withoutSchema, keyOf(object)) ? undefined : `no schema for ${keyOf(object)}`;
  try {
    new model(object).validate();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
