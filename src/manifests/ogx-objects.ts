// Every object generated from one OGXServer, with the OGX operator's names and labels: the
// ConfigMaps the operator reconciles first, then its kustomization's order (PVC, ServiceAccount,
// Service, NetworkPolicy, Deployment, HPA, PDB, RoleBinding, PrometheusRule, ServiceMonitor), then
// the Ingress it builds after them. The OGXServer's choices for each kind, passed as data to the
// kind's one builder.
import type { FieldProblem } from '../lib/issues.js';
import type { RenderOptions } from '../core/render-config.js';
import type { GeneratedConfig } from '../core/config-file.js';
import { ogxObjects } from '../catalog/catalog.js';
import type { KrmObject } from '../krm/item.js';
import { quote } from '../lib/quote.js';
import type { OgxPlan } from '../ogx/plan.js';
import {
  adoptedFromLabel,
  ogxAdoptedNetworking,
  ogxAdoptedStorage,
  ogxAdoptionProblems,
  ogxHasStorage,
  ogxMetricsPort,
  ogxPort,
  ogxReplicas,
  ogxSource,
} from '../core/ogx-workload.js';
import { minReplicas } from '../core/workload.js';
import { gitopsAnnotations, renderConfigMap } from './config-map.js';
import { renderDeployment } from './deployment.js';
import { renderHorizontalPodAutoscaler } from './horizontal-pod-autoscaler.js';
import { renderIngress } from './ingress.js';
import type { PodDisruptionBudgetSpec, ServicePort } from './k8s.js';
import { type Source, ogxMetadata, ogxNames, ogxOwnMetadata, ogxSelectorLabels } from './metadata.js';
import { ogxPolicyRules, renderNetworkPolicy } from './network-policy.js';
import { ogxDeployment, ogxDeploymentProblems, ogxMigrationJob } from './ogx-pod.js';
import { renderJob } from './job.js';
import { ogxPraxisEnabled, ogxPraxisMigration, praxisProblems } from '../ogx/praxis.js';
import { renderPersistentVolumeClaim } from './persistent-volume-claim.js';
import { renderPodDisruptionBudget } from './pod-disruption-budget.js';
import { renderPrometheusRule } from './prometheus-rule.js';
import { renderRoleBinding } from './role-binding.js';
import { renderService } from './service.js';
import { renderServiceAccount } from './service-account.js';
import { renderServiceMonitor } from './service-monitor.js';

/** `config` is the generated config (generated mode only; undefined in override and none modes). */
export function renderOgxObjects(plan: OgxPlan, config: GeneratedConfig | undefined, options: RenderOptions): KrmObject[] {
  const source = ogxSource(plan);
  const workload = plan.server.spec.workload;
  const { generatedConfigLabel, watchLabel, container, caBundle, caBundleComponent, roleBindingClusterRole } = ogxObjects();
  const storage = ogxAdoptedStorage(plan);
  const networking = ogxAdoptedNetworking(plan);
  const policy = ogxPolicyRules(plan, options);
  const monitoring = options.monitoringCrds && ogxMetricsPort(plan) !== undefined;
  const objects: Array<KrmObject | undefined> = [
    // Generated mode only: the override ConfigMap is the user's, and with no config the image runs its own.
    plan.mode === 'generated' && config
      ? renderConfigMap({
        metadata: ogxOwnMetadata(
          source, ogxNames.configMap(source, config.hash), { ...generatedConfigLabel, ...watchLabel }, gitopsAnnotations(config, options),
        ),
        immutable: true,
        key: container.configFileName,
        text: config.text,
      })
      : undefined,
    // `spec.tls.trust.caCertificates`: named without a hash and updated in place by the operator,
    // so not immutable; the pod annotation `llamastack.io/ca-bundle-hash` rolls the pods.
    plan.caBundle
      ? renderConfigMap({
        metadata: ogxOwnMetadata(source, ogxNames.caBundle(source), { 'app.kubernetes.io/component': caBundleComponent, ...watchLabel }),
        immutable: false,
        key: caBundle.fileName,
        text: plan.caBundle.pem,
      })
      : undefined,
    // With `ogx.io/adopt-storage: <llsd>`, the legacy LLSD's `<llsd>-pvc`, which the pod mounts
    // instead. The operator adopts that PVC in the cluster; a render keeps it in its output,
    // labelled as the operator labels it: the LLSD's render made it, and a GitOps prune of what
    // that render no longer makes would delete it and the data on it.
    ogxHasStorage(plan)
      ? renderPersistentVolumeClaim({
        metadata: storage !== undefined
          ? ogxMetadata(source, `${storage}-pvc`, { [adoptedFromLabel]: storage })
          : ogxMetadata(source, ogxNames.persistentVolumeClaim(source)),
        size: workload?.storage?.size,
      })
      : undefined,
    // Always, even when the pod runs as `overrides.serviceAccountName`, as the operator.
    renderServiceAccount(ogxMetadata(source, ogxNames.serviceAccount(source))),
    ogxService(plan, source, ogxNames.service(source), {}),
    // With `ogx.io/adopt-networking: <llsd>`, the legacy LLSD's `<llsd>-service` selecting this
    // server's pods, next to `<name>-service`, as the operator leaves it after adopting it: clients
    // keep its DNS name, and a GitOps prune of the LLSD's render does not delete it.
    networking !== undefined ? ogxService(plan, source, `${networking}-service`, { [adoptedFromLabel]: networking }) : undefined,
    policy ? renderNetworkPolicy({ metadata: ogxMetadata(source, ogxNames.networkPolicy(source)), selector: ogxSelectorLabels(source), ...policy }) : undefined,
    renderDeployment(ogxDeployment(plan, config)),
    // Labelled `app: ogx` and an empty instance label, as the operator's base manifest leaves it.
    workload?.autoscaling
      ? renderHorizontalPodAutoscaler({
        metadata: ogxMetadata(source, ogxNames.horizontalPodAutoscaler(source), baseLabels()),
        deployment: ogxNames.deployment(source),
        min: minReplicas(workload),
        max: workload.autoscaling.maxReplicas,
        cpu: workload.autoscaling.targetCPUUtilizationPercentage,
        memory: workload.autoscaling.targetMemoryUtilizationPercentage,
      })
      : undefined,
    // Given, or for `workload.replicas` > 1 (not the HPA's bounds); the CRD's CEL allows exactly one of the two fields.
    renderPodDisruptionBudget({
      metadata: ogxMetadata(source, ogxNames.podDisruptionBudget(source), baseLabels()),
      given: workload?.podDisruptionBudget as PodDisruptionBudgetSpec | undefined,
      several: ogxReplicas(plan) > 1,
      selector: ogxSelectorLabels(source),
    }),
    // Always bound to `<name>-sa`, even when the pod runs as `overrides.serviceAccountName`.
    options.openshiftAnyuid
      ? renderRoleBinding({
        metadata: ogxMetadata(source, ogxNames.roleBinding(source)),
        account: ogxNames.serviceAccount(source),
        namespace: source.namespace,
        clusterRole: roleBindingClusterRole,
      })
      : undefined,
    monitoring ? renderPrometheusRule(ogxMetadata(source, ogxNames.prometheusRule(source))) : undefined,
    monitoring ? renderServiceMonitor(ogxMetadata(source, ogxNames.serviceMonitor(source), ogxObjects().serviceMonitor.labels)) : undefined,
    // One rule without a host (the operator ignores `externalAccess.hostname`), `/` to the
    // Service's port by number; no TLS. The `ingressClass` and `ingressAnnotations` options apply
    // (none by default, as upstream); `exposeKind`, `ingressDomain` and `ingressTls` are the LLSD's.
    // Praxis mode: no Ingress (the admission warning is praxisProblems'); Praxis is the way in.
    plan.server.spec.network?.externalAccess?.enabled === true && !ogxPraxisEnabled(plan.server.spec)
      ? renderIngress({
        metadata: ogxOwnMetadata(source, ogxNames.ingress(source), {}, options.ingressAnnotations),
        className: options.ingressClass,
        host: undefined,
        tls: undefined,
        service: ogxNames.service(source),
        port: { number: ogxPort(plan) },
      })
      : undefined,
    // Praxis mode with `migrationJob`: the Job `<name>-praxis-migration-<attempt>`.
    ogxPraxisMigration(plan.server.spec) ? praxisJob(plan, config) : undefined,
  ];
  return objects.filter((object): object is KrmObject => object !== undefined);
}

/** Warnings about what the objects of an OGXServer do that its spec seems to ask otherwise. */
export function ogxObjectProblems(
  plan: OgxPlan, config: GeneratedConfig | undefined, options: Pick<RenderOptions, 'networkPolicy'> = { networkPolicy: 'auto' },
): FieldProblem[] {
  return [...ogxDeploymentProblems(plan, config), ...ingressProblems(plan), ...ogxAdoptionProblems(plan), ...praxisProblems(plan, config, options)];
}

function praxisJob(plan: OgxPlan, config: GeneratedConfig | undefined): KrmObject | undefined {
  const job = ogxMigrationJob(plan, config);
  return job ? renderJob(job) : undefined;
}

/**
 * The API port by number (the container port has no name); with monitoring on, the metrics port
 * too, unless it is the API port (the operator's service transformer).
 */
function ogxService(plan: OgxPlan, source: Source, name: string, labels: Record<string, string>) {
  const c = ogxObjects().container;
  const port = ogxPort(plan);
  const metrics = ogxMetricsPort(plan);
  const ports: ServicePort[] = [{ name: c.servicePortName, protocol: 'TCP', port, targetPort: port }];
  if (metrics !== undefined && metrics !== port) ports.push({ name: c.metricsPortName, protocol: 'TCP', port: metrics, targetPort: metrics });
  return renderService({ metadata: ogxMetadata(source, name, labels), selector: ogxSelectorLabels(source), ports });
}

/** As upstream, `externalAccess.hostname` sets no host: said, so that nobody counts on it. */
function ingressProblems(plan: OgxPlan): FieldProblem[] {
  const access = plan.server.spec.network?.externalAccess;
  if (access?.enabled !== true || access.hostname === undefined || ogxPraxisEnabled(plan.server.spec)) return [];
  return [
    {
      severity: 'warning', code: 'field-has-no-effect',
      path: ['spec', 'network', 'externalAccess', 'hostname'],
      message: `is ignored, as by the OGX operator: the Ingress ${quote(ogxNames.ingress(ogxSource(plan)))} has no host, ` +
        'so it answers on every host name its controller serves',
    },
  ];
}

/** The labels of the operator's HPA and PDB base manifests, whose instance label stays empty. */
const baseLabels = (): Record<string, string> => ({ ...ogxObjects().appLabel, 'app.kubernetes.io/instance': '' });
