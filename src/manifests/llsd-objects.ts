// Every object generated from one LLSD, in the fixed order they are written in (so a second render changes nothing): the
// LLSD's choices for each kind, passed as data to the kind's one builder.
import type { RenderOptions } from '../core/render-config.js';
import type { GeneratedConfig } from '../core/config-file.js';
import { workloadDefaults } from '../catalog/catalog.js';
import type { KrmObject } from '../krm/item.js';
import type { Plan } from '../llsd/plan.js';
import { hasPersistentVolume, maxPods, minReplicas, serverPort, serverPortName, servesTls } from '../core/workload.js';
import { gitopsAnnotations, pruneLast, renderConfigMap } from './config-map.js';
import { renderDeployment } from './deployment.js';
import { exposeNames, exposureOf } from './exposure.js';
import { renderHorizontalPodAutoscaler } from './horizontal-pod-autoscaler.js';
import { renderHttpRoute } from './http-route.js';
import { renderIngress } from './ingress.js';
import type { PodDisruptionBudgetSpec } from './k8s.js';
import { caBundleName, llsdDeployment } from './llsd-pod.js';
import { metadataFor, names, selectorLabels } from './metadata.js';
import { llsdPolicyRules, renderNetworkPolicy } from './network-policy.js';
import { renderPersistentVolumeClaim } from './persistent-volume-claim.js';
import { renderPodDisruptionBudget } from './pod-disruption-budget.js';
import { renderRoleBinding } from './role-binding.js';
import { renderRoute } from './route.js';
import { renderService } from './service.js';
import { renderServiceAccount } from './service-account.js';

export function renderObjects(plan: Plan, config: GeneratedConfig, options: RenderOptions): KrmObject[] {
  const { llsd } = plan;
  const workload = llsd.spec.workload;
  const overrides = workload?.overrides;
  const { configFileName } = workloadDefaults().container;
  // `https` when the server serves TLS: the Ingress backend and Route refer to the port by this name.
  const portName = serverPortName(llsd);
  const exposure = exposureOf(plan, options);
  const server = (name: string, annotations: Record<string, string> = {}) => metadataFor(llsd, name, 'server', annotations);
  const policy = llsdPolicyRules(plan, options);
  const objects: Array<KrmObject | undefined> = [
    // A config from the user's ConfigMap (`overrideConfig`) is theirs: none is generated.
    config.fromConfigMap
      ? undefined
      : renderConfigMap({
        metadata: metadataFor(llsd, names.configMap(llsd, config.hash), 'config', gitopsAnnotations(config, options)),
        immutable: true,
        key: configFileName,
        text: config.text,
      }),
    // None when the CR names its own ServiceAccount.
    overrides?.serviceAccountName ? undefined : renderServiceAccount(server(names.serviceAccount(llsd))),
    options.openshiftAnyuid
      ? renderRoleBinding({
        metadata: server(names.roleBinding(llsd)),
        account: overrides?.serviceAccountName ?? names.serviceAccount(llsd),
        namespace: llsd.namespace,
        clusterRole: anyuidClusterRole,
      })
      : undefined,
    renderDeployment(llsdDeployment(plan, config)),
    renderService({
      metadata: server(names.service(llsd)),
      selector: selectorLabels(llsd),
      ports: [{ name: portName, protocol: 'TCP', ...(servesTls(llsd) ? { appProtocol: portName } : {}), port: serverPort(plan), targetPort: portName }],
    }),
    exposure?.kind === 'ingress'
      ? renderIngress({
        metadata: server(exposeNames.ingress(llsd), exposure.annotations),
        className: options.ingressClass,
        host: exposure.host,
        tls: exposure.tls,
        service: names.service(llsd),
        port: { name: portName },
      })
      : undefined,
    exposure?.kind === 'route'
      ? renderRoute({
        metadata: server(exposeNames.route(llsd), exposure.annotations),
        host: exposure.host,
        service: names.service(llsd),
        targetPort: portName,
        routerTls: exposure.tls !== undefined,
        backendTls: exposure.backendTls,
      })
      : undefined,
    // Without a `gateway` option none: exposureProblems has reported that as an error.
    exposure?.kind === 'httproute' && options.gateway
      ? renderHttpRoute({
        metadata: server(exposeNames.httproute(llsd), exposure.annotations),
        gateway: options.gateway,
        host: exposure.host,
        service: names.service(llsd),
        port: serverPort(plan),
      })
      : undefined,
    policy ? renderNetworkPolicy({ metadata: server(names.networkPolicy(llsd)), selector: selectorLabels(llsd), ingress: policy }) : undefined,
    hasPersistentVolume(llsd)
      ? renderPersistentVolumeClaim({ metadata: metadataFor(llsd, names.persistentVolumeClaim(llsd), 'storage'), size: workload?.storage?.size })
      : undefined,
    workload?.autoscaling
      ? renderHorizontalPodAutoscaler({
        metadata: server(names.horizontalPodAutoscaler(llsd)),
        deployment: names.deployment(llsd),
        min: minReplicas(workload),
        max: workload.autoscaling.maxReplicas,
        cpu: workload.autoscaling.targetCPUUtilization,
        memory: workload.autoscaling.targetMemoryUtilization,
      })
      : undefined,
    renderPodDisruptionBudget({
      metadata: server(names.podDisruptionBudget(llsd)),
      // As written, checked by the LLSD's rules (exactly one of the two fields).
      given: workload?.podDisruptionBudget as PodDisruptionBudgetSpec | undefined,
      several: maxPods(workload) > 1,
      selector: selectorLabels(llsd),
    }),
    plan.caBundle
      ? renderConfigMap({
        metadata: metadataFor(llsd, caBundleName(plan) as string, 'ca-bundle', pruneLast(options)),
        immutable: true,
        key: workloadDefaults().caBundle.fileName,
        text: plan.caBundle.pem,
      })
      : undefined,
  ];
  return objects.filter((object): object is KrmObject => object !== undefined);
}

const anyuidClusterRole = 'system:openshift:scc:anyuid';
