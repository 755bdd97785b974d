// Content digests as the OCI image spec defines them: `algorithm:hex`. sha256 is what registries
// use; sha512 is the other registered algorithm. Anything else cannot be checked, so it is refused.
import { createHash, type Hash } from 'node:crypto';

const hexLength = { sha256: 64, sha512: 128 } as const;
export type DigestAlgorithm = keyof typeof hexLength;

/** A digest llsd-render can check: `sha256:<64 hex>` or `sha512:<128 hex>`. */
export const digestPattern = /^(sha256:[a-f0-9]{64}|sha512:[a-f0-9]{128})$/;

export const isDigest = (text: string): boolean => digestPattern.test(text);

export function algorithmOf(digest: string): DigestAlgorithm | undefined {
  const algorithm = digest.slice(0, digest.indexOf(':'));
  return Object.hasOwn(hexLength, algorithm) && digest.length === algorithm.length + 1 + hexLength[algorithm as DigestAlgorithm]
    ? (algorithm as DigestAlgorithm)
    : undefined;
}

/** A hash that will produce a digest of `algorithm` (sha256 when none is known yet). */
export const hasherFor = (algorithm: DigestAlgorithm = 'sha256'): { hash: Hash; algorithm: DigestAlgorithm } => ({ hash: createHash(algorithm), algorithm });

export const digestOf = (bytes: Buffer, algorithm: DigestAlgorithm = 'sha256'): string => `${algorithm}:${createHash(algorithm).update(bytes).digest('hex')}`;
