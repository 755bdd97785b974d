// Every object generated from one LLSD, in the fixed order they are written in (DESIGN §4).
import type { FieldProblem } from '../lib/issues.js';
import type { RenderOptions } from '../core/render-config.js';
import type { GeneratedConfig } from '../llsd/generate.js';
import type { KrmObject } from '../krm/item.js';
import type { OgxPlan } from '../ogx/plan.js';
import type { Plan } from '../llsd/plan.js';
import { renderCaBundle, renderConfigMap, renderOgxCaBundle, renderOgxConfigMap } from './config-map.js';
import { ogxDeploymentProblems, renderDeployment, renderOgxDeployment } from './deployment.js';
import { renderHorizontalPodAutoscaler, renderOgxHorizontalPodAutoscaler } from './horizontal-pod-autoscaler.js';
import { renderHttpRoute } from './http-route.js';
import { ogxIngressProblems, renderIngress, renderOgxIngress } from './ingress.js';
import { renderNetworkPolicy, renderOgxNetworkPolicy } from './network-policy.js';
import { renderOgxPersistentVolumeClaim, renderPersistentVolumeClaim } from './persistent-volume-claim.js';
import { renderOgxPodDisruptionBudget, renderPodDisruptionBudget } from './pod-disruption-budget.js';
import { renderPrometheusRule } from './prometheus-rule.js';
import { renderOgxRoleBinding, renderRoleBinding } from './role-binding.js';
import { renderRoute } from './route.js';
import { renderOgxAdoptedService, renderOgxService, renderService } from './service.js';
import { renderOgxServiceAccount, renderServiceAccount } from './service-account.js';
import { renderServiceMonitor } from './service-monitor.js';
import { ogxAdoptionProblems } from '../core/ogx-workload.js';

export function renderObjects(plan: Plan, config: GeneratedConfig, options: RenderOptions): KrmObject[] {
  return [
    renderConfigMap(plan, config, options),
    renderServiceAccount(plan),
    renderRoleBinding(plan, options),
    renderDeployment(plan, config),
    renderService(plan),
    renderIngress(plan, options),
    renderRoute(plan, options),
    renderHttpRoute(plan, options),
    renderNetworkPolicy(plan, options),
    renderPersistentVolumeClaim(plan),
    renderHorizontalPodAutoscaler(plan),
    renderPodDisruptionBudget(plan),
    renderCaBundle(plan, options),
  ].filter((object): object is KrmObject => object !== undefined);
}

/**
 * Every object generated from one OGXServer (reference OBJECTS.md): the ConfigMaps the operator
 * reconciles first, then its kustomization's order (PVC, ServiceAccount, Service, NetworkPolicy,
 * Deployment, HPA, PDB, RoleBinding, PrometheusRule, ServiceMonitor), then the Ingress it builds
 * after them. `config` is the generated config (generated mode only; undefined in override and
 * none modes).
 */
export function renderOgxObjects(plan: OgxPlan, config: GeneratedConfig | undefined, options: RenderOptions): KrmObject[] {
  return [
    renderOgxConfigMap(plan, config, options),
    renderOgxCaBundle(plan),
    renderOgxPersistentVolumeClaim(plan),
    renderOgxServiceAccount(plan),
    renderOgxService(plan),
    renderOgxAdoptedService(plan),
    renderOgxNetworkPolicy(plan, options),
    renderOgxDeployment(plan, config),
    renderOgxHorizontalPodAutoscaler(plan),
    renderOgxPodDisruptionBudget(plan),
    renderOgxRoleBinding(plan, options),
    renderPrometheusRule(plan, options),
    renderServiceMonitor(plan, options),
    renderOgxIngress(plan, options),
  ].filter((object): object is KrmObject => object !== undefined);
}

/** Warnings about what the objects of an OGXServer do that its spec seems to ask otherwise. */
export function ogxObjectProblems(plan: OgxPlan, config: GeneratedConfig | undefined): FieldProblem[] {
  return [...ogxDeploymentProblems(plan, config), ...ogxIngressProblems(plan), ...ogxAdoptionProblems(plan)];
}
