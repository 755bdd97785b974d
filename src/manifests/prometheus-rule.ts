// The PrometheusRule `<name>-prometheus-rules` (monitoring.coreos.com/v1) of an OGXServer with
// monitoring on, as the OGX operator's (reference OBJECTS.md §13): one group of recording rules,
// a 0/1 "in use" signal per API surface, scoped to no namespace or instance (as upstream).
import type { RenderOptions } from '../core/render-config.js';
import { ogxObjects } from '../catalog/catalog.js';
import type { KrmObject } from '../krm/item.js';
import type { OgxPlan } from '../ogx/plan.js';
import { ogxSource } from '../core/ogx-workload.js';
import { ogxMetadata, ogxNames } from './metadata.js';
import { ogxMonitoringObjects } from './service-monitor.js';

export function renderPrometheusRule(plan: OgxPlan, options: RenderOptions): KrmObject | undefined {
  if (!ogxMonitoringObjects(plan, options)) return undefined;
  const source = ogxSource(plan);
  const { group, interval, record, rules } = ogxObjects().prometheusRule;
  return {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'PrometheusRule',
    metadata: ogxMetadata(source, ogxNames.prometheusRule(source)),
    spec: { groups: [{ name: group, interval, rules: rules.map(({ api, expr }) => ({ record, labels: { api }, expr })) }] },
  };
}
