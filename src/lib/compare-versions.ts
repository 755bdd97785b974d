// Release numbers (`0.7.1`, `1.2.4`) compared numerically, part by part.

/** The numbers of a version; the few distinct versions are split once (a render compares thousands of times). */
const parts = new Map<string, number[]>();
function partsOf(version: string): number[] {
  let found = parts.get(version);
  if (!found) {
    found = version.split('.').map(Number);
    if (parts.size < 10_000) parts.set(version, found);
  }
  return found;
}

/** Compares `0.7.1`-style versions numerically. */
export function compareVersions(a: string, b: string): number {
  const pa = partsOf(a);
  const pb = partsOf(b);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
