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
  ogxServesTls,
  ogxPraxisEnabled,
  ogxPraxisMigration,
  ogxSource,
} from '../core/ogx-workload.js';
import { minReplicas } from '../core/workload.js';
import { gitopsAnnotations, renderConfigMap } from './config-map.js';
import { renderDeployment } from './deployment.js';
import { renderHorizontalPodAutoscaler } from './horizontal-pod-autoscaler.js';
import { renderIngress } from './ingress.js';
import type { PodDisruptionBudgetSpec, ServicePort } from './k8s.js';
import { isDnsName, saysBackendProtocol } from './exposure.js';
import { type Source, ogxInstanceLabel, ogxMetadata, ogxNames, ogxOwnMetadata, ogxSelectorLabels } from './metadata.js';
import { ogxNetworkPolicyProblems, ogxPolicyRules, renderNetworkPolicy } from './network-policy.js';
import { ogxDeployment, ogxDeploymentProblems, ogxMigrationJob } from './ogx-pod.js';
import { renderJob } from './job.js';
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
  // Labelled with the instance (not upstream), which the ServiceMonitor selects it by.
  const service = ogxService(plan, config, source, ogxNames.service(source), ogxInstanceLabel(source));
  const access = plan.server.spec.network?.externalAccess;
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
    service,
    // With `ogx.io/adopt-networking: <llsd>`, the legacy LLSD's `<llsd>-service` selecting this
    // server's pods, next to `<name>-service`, as the operator leaves it after adopting it: clients
    // keep its DNS name, and a GitOps prune of the LLSD's render does not delete it.
    networking !== undefined ? ogxService(plan, config, source, `${networking}-service`, { [adoptedFromLabel]: networking }) : undefined,
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
    // Not upstream, which selects every OGX Service of the namespace: only this server's Service,
    // by its instance label (the adopted `<llsd>-service` selects the same pods but is not scraped twice).
    monitoring
      ? renderServiceMonitor({
        metadata: ogxMetadata(source, ogxNames.serviceMonitor(source), ogxObjects().serviceMonitor.labels),
        selector: pick(service.metadata.labels ?? {}, ogxObjects().serviceMonitor.selectorKeys),
      })
      : undefined,
    // One rule, `/` to the Service's port by number, at `externalAccess.hostname` (else on every
    // host name), with TLS from `externalAccess.tls.secretName` for that host (upstream PR #330).
    // The `ingressClass` and `ingressAnnotations` options apply (none by default, as upstream);
    // `exposeKind`, `ingressDomain` and `ingressTls` are the LLSD's.
    // Praxis mode: no Ingress (the admission warning is praxisProblems', src/ogx/praxis.ts); Praxis is the way in.
    access?.enabled === true && !ogxPraxisEnabled(plan.server.spec)
      ? renderIngress({
        metadata: ogxOwnMetadata(source, ogxNames.ingress(source), {}, options.ingressAnnotations),
        className: options.ingressClass,
        host: access.hostname,
        tls: access.tls,
        service: ogxNames.service(source),
        port: { number: ogxPort(plan) },
      })
      : undefined,
    // Praxis mode with `migrationJob`: the Job `<name>-praxis-migration-<attempt>`.
    ogxPraxisMigration(plan.server.spec) ? praxisJob(plan, config) : undefined,
  ];
  return objects.filter((object): object is KrmObject => object !== undefined);
}

/**
 * Warnings about what the objects of an OGXServer do that its spec seems to ask otherwise, and the
 * problems of its networking against the render options.
 */
export function ogxObjectProblems(plan: OgxPlan, config: GeneratedConfig | undefined, options: RenderOptions): FieldProblem[] {
  return [
    ...ogxDeploymentProblems(plan, config),
    ...ingressProblems(plan, config, options),
    ...ogxNetworkPolicyProblems(plan, options),
    ...ogxAdoptionProblems(plan),
  ];
}

function praxisJob(plan: OgxPlan, config: GeneratedConfig | undefined): KrmObject | undefined {
  const job = ogxMigrationJob(plan, config);
  return job ? renderJob(job) : undefined;
}

/**
 * The API port by number (the container port has no name), named `http`, or `https` with that
 * appProtocol when the config serves TLS (not upstream, which names it `http` always); with
 * monitoring on, the metrics port too, unless it is the API port (the operator's service transformer).
 */
function ogxService(plan: OgxPlan, config: GeneratedConfig | undefined, source: Source, name: string, labels: Record<string, string>) {
  const c = ogxObjects().container;
  const port = ogxPort(plan);
  const metrics = ogxMetricsPort(plan);
  const api: ServicePort = ogxServesTls(plan, config)
    ? { name: c.tlsServicePortName, protocol: 'TCP', appProtocol: c.tlsServicePortName, port, targetPort: port }
    : { name: c.servicePortName, protocol: 'TCP', port, targetPort: port };
  const ports: ServicePort[] = [api];
  if (metrics !== undefined && metrics !== port) ports.push({ name: c.metricsPortName, protocol: 'TCP', port: metrics, targetPort: metrics });
  return renderService({ metadata: ogxMetadata(source, name, labels), selector: ogxSelectorLabels(source), ports });
}

/**
 * The Ingress against what it is asked: an `externalAccess.hostname` the API server would refuse
 * is an error; a server that serves HTTPS gets plain HTTP from the controller unless an annotation
 * says otherwise.
 */
function ingressProblems(plan: OgxPlan, config: GeneratedConfig | undefined, options: RenderOptions): FieldProblem[] {
  const access = plan.server.spec.network?.externalAccess;
  // Praxis mode renders no Ingress: praxisProblems (src/ogx/praxis.ts) says so.
  if (access?.enabled !== true || ogxPraxisEnabled(plan.server.spec)) return [];
  const ingress = quote(ogxNames.ingress(ogxSource(plan)));
  const path = ['spec', 'network', 'externalAccess'];
  const problems: FieldProblem[] = [];
  if (access.hostname !== undefined && !isIngressHost(access.hostname)) {
    problems.push({
      path: [...path, 'hostname'],
      message: 'must be a DNS name such as `ogx.example.com` (or `*.example.com`): lower case letters, digits, `-` and `.`, with no scheme, port or path',
    });
  }
  if (ogxServesTls(plan, config) && !Object.keys(options.ingressAnnotations).some(saysBackendProtocol)) {
    problems.push({
      severity: 'warning', code: 'backend-https',
      path: [...path, 'enabled'],
      message: `is on and the server serves HTTPS (\`server.tls_certfile\` in its config.yaml), but the Ingress ${ingress} sends plain HTTP ` +
        "to it unless its controller is told otherwise: add the controller's annotation to the `ingressAnnotations` option " +
        '(ingress-nginx: `nginx.ingress.kubernetes.io/backend-protocol: HTTPS`)',
    });
  }
  return problems;
}

/** An Ingress rule's host: a lower-case DNS name, optionally a wildcard's `*.` first. */
/** An IPv4 address is no host name to the API server ("must be a DNS name, not an IP address"). */
const isIngressHost = (host: string): boolean =>
  !/^\d+(\.\d+){3}$/.test(host) && isDnsName(host.startsWith('*.') ? host.slice(2) : host);

const pick = (labels: Record<string, string>, keys: string[]): Record<string, string> =>
  Object.fromEntries(Object.entries(labels).filter(([key]) => keys.includes(key)));

/** The labels of the operator's HPA and PDB base manifests, whose instance label stays empty. */
const baseLabels = (): Record<string, string> => ({ ...ogxObjects().appLabel, 'app.kubernetes.io/instance': '' });
