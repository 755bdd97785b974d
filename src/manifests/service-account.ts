// The ServiceAccount the server runs as. Whether there is one is each API's choice:
// an LLSD's unless the CR names its own, an OGXServer's always, as its operator creates `<name>-sa`.
import type { Metadata, ServiceAccount } from './k8s.js';

export const renderServiceAccount = (metadata: Metadata): ServiceAccount => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata });
