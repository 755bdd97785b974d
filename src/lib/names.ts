// Names that must fit a length limit (a Kubernetes object name, an OGXServer name), shortened so
// that two long names never become one.
import { createHash } from 'node:crypto';

/** The longest generated name: a DNS-1123 label (the Service needs it; the others keep to it too). */
export const maxNameLength = 63;

/**
 * `<base><suffix>` when it fits in `max` characters; otherwise `base` cut short, then `-` and 8 hex
 * of the sha256 of the whole name, then `suffix`. The same input always gives the same name, and
 * two long names that share a prefix do not meet.
 */
export function fitName(base: string, suffix: string, max = maxNameLength): string {
  const whole = `${base}${suffix}`;
  if (whole.length <= max) return whole;
  const hash = createHash('sha256').update(whole).digest('hex').slice(0, 8);
  return `${base.slice(0, Math.max(0, max - suffix.length - hash.length - 1)).replace(/-+$/, '')}-${hash}${suffix}`;
}
