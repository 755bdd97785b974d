// The PrometheusRule (monitoring.coreos.com/v1) of a server with monitoring on, as the OGX
// operator's: one group of recording rules, a 0/1 "in use" signal per API surface, scoped to no
// namespace or instance (as upstream).
import { ogxObjects } from '../catalog/catalog.js';
import type { Metadata, PrometheusRule } from './k8s.js';

export function renderPrometheusRule(metadata: Metadata): PrometheusRule {
  const { group, interval, record, rules } = ogxObjects().prometheusRule;
  return {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'PrometheusRule',
    metadata,
    spec: { groups: [{ name: group, interval, rules: rules.map(({ api, expr }) => ({ record, labels: { api }, expr })) }] },
  };
}
