// Every object generated from one LLSD, in the fixed order they are written in (DESIGN §4).
import type { RenderOptions } from '../api/render-config.js';
import type { GeneratedConfig } from '../config/generate.js';
import type { KrmObject } from '../krm/item.js';
import type { Plan } from '../plan/plan.js';
import { renderCaBundle, renderConfigMap } from './config-map.js';
import { renderDeployment } from './deployment.js';
import { renderHorizontalPodAutoscaler } from './horizontal-pod-autoscaler.js';
import { renderHttpRoute } from './http-route.js';
import { renderIngress } from './ingress.js';
import { renderNetworkPolicy } from './network-policy.js';
import { renderPersistentVolumeClaim } from './persistent-volume-claim.js';
import { renderPodDisruptionBudget } from './pod-disruption-budget.js';
import { renderRoleBinding } from './role-binding.js';
import { renderRoute } from './route.js';
import { renderService } from './service.js';
import { renderServiceAccount } from './service-account.js';

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
