// A batch/v1 Job that runs one container to completion: the OGXServer's Praxis migration Job
// (`ogxMigrationJob` in ogx-pod.ts decides its parts, as the OGX operator's
// controllers/migration_job.go does).
import type { Container, Job, Metadata, PodSecurityContext, Volume } from './k8s.js';

export interface JobInput {
  metadata: Metadata;
  /** Pod template labels. */
  podLabels: Record<string, string>;
  backoffLimit: number;
  activeDeadlineSeconds: number;
  restartPolicy: 'OnFailure' | 'Never';
  serviceAccountName: string;
  podSecurityContext: PodSecurityContext;
  container: Container;
  volumes: Volume[];
}

export function renderJob(input: JobInput): Job {
  const { metadata, podLabels, backoffLimit, activeDeadlineSeconds, restartPolicy, serviceAccountName, podSecurityContext, container, volumes } = input;
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata,
    spec: {
      backoffLimit,
      completions: 1,
      parallelism: 1,
      activeDeadlineSeconds,
      template: {
        metadata: { labels: podLabels },
        spec: {
          restartPolicy,
          serviceAccountName,
          securityContext: podSecurityContext,
          containers: [container],
          ...(volumes.length > 0 && { volumes }),
        },
      },
    },
  };
}
