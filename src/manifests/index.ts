// Every object generated from one LLSD, in the fixed order they are written in (DESIGN §4).
import type { RenderOptions } from '../api/render-config.js';
import type { GeneratedConfig } from '../config/generate.js';
import type { KrmObject } from '../krm/item.js';
import type { Plan } from '../plan/plan.js';
import { renderConfigMap } from './config-map.js';
import { renderDeployment } from './deployment.js';
import { renderService } from './service.js';
import { renderServiceAccount } from './service-account.js';

export function renderObjects(plan: Plan, config: GeneratedConfig, options: RenderOptions): KrmObject[] {
  return [
    renderConfigMap(plan, config, options),
    renderServiceAccount(plan),
    renderDeployment(plan, config),
    renderService(plan),
  ].filter((object): object is KrmObject => object !== undefined);
}
