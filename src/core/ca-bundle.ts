// `networking.tls.caBundle`: the CA certificates the server trusts for outbound TLS (docs/config-generation.md;
// the v1alpha1 operator's CA bundle handling). As the operator builds `<name>-ca-bundle`,
// only the PEM CERTIFICATE blocks of the selected keys that parse as X.509 are kept, re-encoded and
// joined; the result is rendered as a hash-named ConfigMap, so a changed bundle rolls the pods.
import { X509Certificate } from 'node:crypto';
import { isError, type FieldProblem } from '../lib/issues.js';
import type { Llsd } from '../llsd/llsd.js';
import { workloadDefaults } from '../catalog/catalog.js';
import type { Inventory } from '../krm/inventory.js';
import { listOf, quote } from '../lib/quote.js';

export interface CaBundle {
  /** The source ConfigMap. */
  configMapName: string;
  /** The valid certificates of the selected keys, PEM, one after another. */
  pem: string;
  certificates: number;
}

export type CaBundleOutcome = { bundle?: CaBundle; problems: FieldProblem[] };

export function readCaBundle(llsd: Llsd, inventory: Inventory): CaBundleOutcome {
  const caBundle = llsd.spec.networking?.tls?.caBundle;
  if (!caBundle) return { problems: [] };
  const base = ['spec', 'networking', 'tls', 'caBundle'];
  const { configMapName } = caBundle;
  // checkReferences has reported a ConfigMap missing from the input.
  const data = (inventory.find('', 'ConfigMap', llsd.namespace, configMapName)?.object.data ?? {}) as Record<string, unknown>;
  const keys = caBundle.configMapKeys ?? workloadDefaults().caBundle.defaultKeys;
  const problems: FieldProblem[] = [];
  const pems: string[] = [];
  keys.forEach((key, i) => {
    const path = caBundle.configMapKeys ? [...base, 'configMapKeys', i] : [...base, 'configMapName'];
    const text = Object.hasOwn(data, key) ? data[key] : undefined;
    if (typeof text !== 'string') {
      const present = Object.keys(data).sort();
      problems.push({
        path,
        message: `names the key ${quote(key)}, which the ConfigMap ${quote(configMapName)} does not ` +
          `have${present.length > 0 ? `; its keys: ${listOf(present)}` : ' (it has no data)'}` +
            `${caBundle.configMapKeys ? '' : '; set `configMapKeys` to the keys holding the certificates'}`,
      });
      return;
    }
    const parsed = parseCertificates(text);
    pems.push(...parsed.valid);
    if (parsed.invalid > 0) {
      problems.push({
        severity: 'warning',
        code: 'ca-bundle-invalid-block',
        path,
        message: `${caBundle.configMapKeys
          ? `names the key ${quote(key)} of the ConfigMap ${quote(configMapName)}, which`
          : `names the ConfigMap ${quote(configMapName)}, whose key ${quote(key)}`} ` +
          `holds ${count(parsed.invalid, 'CERTIFICATE block')} that ${parsed.invalid === 1 ? 'is' : 'are'} not a valid X.509 certificate; ` +
          `${parsed.invalid === 1 ? 'it is' : 'they are'} left out of the bundle`,
      });
    }
  });
  if (problems.some(isError)) return { problems };
  if (pems.length === 0) {
    return {
      problems: [
        ...problems,
        {
          path: [...base, 'configMapName'],
          message: `names the ConfigMap ${quote(configMapName)}, which holds no valid PEM certificate under ${listOf(keys, { each: (k) => quote(k) })}: add ` +
            `the CA certificates ("-----BEGIN CERTIFICATE-----" blocks), or remove \`caBundle\``,
        },
      ],
    };
  }
  const pem = pems.join('');
  if (Buffer.byteLength(pem) > maxConfigMapBytes) {
    return {
      problems: [
        ...problems,
        {
          path: [...base, 'configMapName'],
          message: `names the ConfigMap ${quote(configMapName)}, whose ${count(pems.length, 'certificate')} make ${Buffer.byteLength(pem)} bytes: more than ` +
            `a ConfigMap holds (1 MiB); select fewer keys with \`configMapKeys\``,
        },
      ],
    };
  }
  return { bundle: { configMapName, pem, certificates: pems.length }, problems };
}

/**
 * The CERTIFICATE blocks of a PEM text: each body must be base64 of DER that X509Certificate
 * accepts; valid ones are re-encoded (so stray headers and spacing do not reach the bundle).
 * Other PEM blocks (keys, CRLs) and text around the blocks are ignored, as by OpenSSL.
 */
export function parseCertificates(text: string): { valid: string[]; invalid: number } {
  const valid: string[] = [];
  let invalid = 0;
  for (const match of text.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g)) {
    const body = (match[1] as string).replace(/\s+/g, '');
    const certificate = /^[A-Za-z0-9+/]+={0,2}$/.test(body) && body.length % 4 === 0 ? x509(Buffer.from(body, 'base64')) : undefined;
    if (certificate) valid.push(certificate.toString());
    else invalid++;
  }
  return { valid, invalid };
}

function x509(der: Buffer): X509Certificate | undefined {
  try {
    return new X509Certificate(der);
  } catch {
    return undefined;
  }
}

/** A ConfigMap's data must stay under 1 MiB (the API server's limit for the whole object). */
const maxConfigMapBytes = 1024 * 1024 - 4096;

const count = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`;

/**
 * OGXServer `spec.tls.trust.caCertificates`: each ConfigMap key's certificates, in list order. As
 * the OGX operator refuses (it does not reconcile) a key without a valid certificate or with one
 * that does not parse, both are errors here; `configMapName` is the first ConfigMap named.
 */
export function readOgxCaBundle(
  refs: ReadonlyArray<{ name: string; key: string }> | undefined,
  namespace: string | undefined,
  inventory: Inventory,
): CaBundleOutcome {
  const odh = odhTrustedCertificates(namespace, inventory);
  if ((!refs || refs.length === 0) && odh.length === 0) return { problems: [] };
  const problems: FieldProblem[] = [];
  const pems: string[] = [];
  (refs ?? []).forEach((ref, i) => {
    const path = ['spec', 'tls', 'trust', 'caCertificates', i];
    const data = (inventory.find('', 'ConfigMap', namespace, ref.name)?.object.data ?? {}) as Record<string, unknown>;
    const text = Object.hasOwn(data, ref.key) ? data[ref.key] : undefined;
    if (typeof text !== 'string') {
      problems.push({
        path: [...path, 'key'],
        message: `names the key ${quote(ref.key)}, which the ConfigMap ${quote(ref.name)} does not have in the input; add the ConfigMap with that key (PEM ` +
          `CA certificates)`,
      });
      return;
    }
    const parsed = parseCertificates(text);
    if (parsed.invalid > 0) {
      problems.push({
        path: [...path, 'key'],
        message: `names the key ${quote(ref.key)} of the ConfigMap ${quote(ref.name)}, which holds ${count(parsed.invalid, 'CERTIFICATE block')} that ` +
          `${parsed.invalid === 1 ? 'is' : 'are'} not a valid X.509 certificate (the operator fails: failed to parse X.509 certificate); fix or remove ` +
          `${parsed.invalid === 1 ? 'it' : 'them'}`,
      });
    } else if (parsed.valid.length === 0 && text.trim() !== '') {
      problems.push({
        path: [...path, 'key'],
        message: `names the key ${quote(ref.key)} of the ConfigMap ${quote(ref.name)}, which holds no PEM certificate (the operator fails: failed to find ` +
          `valid certificates in CA bundle key); add "-----BEGIN CERTIFICATE-----" blocks`,
      });
    }
    pems.push(...parsed.valid);
  });
  if (problems.length > 0) return { problems };
  pems.push(...odh);
  // The operator fails the reconcile when the named keys hold only whitespace: no bundle to mount.
  if (pems.length === 0) {
    return {
      problems: [
        {
          path: ['spec', 'tls', 'trust', 'caCertificates'],
          message:
            'names only keys without certificates (the operator fails: failed to find valid certificates in CA bundle ConfigMaps); add "-----BEGIN ' +
              'CERTIFICATE-----" blocks to them, or remove `tls.trust`',
        },
      ],
    };
  }
  // As the operator's certificateCollector: each re-encoded PEM (ending in a newline), joined by "\n".
  const pem = pems.join('\n');
  if (Buffer.byteLength(pem) > maxConfigMapBytes) {
    return {
      problems: [
        {
          path: ['spec', 'tls', 'trust', 'caCertificates'],
          message: `holds ${count(pems.length, 'certificate')} that make ${Buffer.byteLength(pem)} bytes: more than a ConfigMap holds (1 MiB); name fewer keys`,
        },
      ],
    };
  }
  return { bundle: { configMapName: refs?.[0]?.name ?? odhTrustedBundle, pem, certificates: pems.length }, problems: [] };
}

/**
 * As the OGX operator builds its CA bundle ConfigMap: it adds the certificates of every key of a ConfigMap
 * `odh-trusted-ca-bundle` in the server's namespace (OpenShift AI's cluster-wide trust) after the
 * named ones, skipping keys that hold none. At commit time that ConfigMap counts when it is in the
 * input; its keys are read in name order (the operator's order is Go's random map order).
 */
function odhTrustedCertificates(namespace: string | undefined, inventory: Inventory): string[] {
  const data = inventory.find('', 'ConfigMap', namespace, odhTrustedBundle)?.object.data;
  if (!data || typeof data !== 'object') return [];
  return Object.keys(data)
    .sort()
    .flatMap((key) => {
      const text = (data as Record<string, unknown>)[key];
      if (typeof text !== 'string') return [];
      const parsed = parseCertificates(text);
      return parsed.invalid > 0 ? [] : parsed.valid;
    });
}

const odhTrustedBundle = 'odh-trusted-ca-bundle';
