// Rules across fields of one OGXServer: the CRD's CEL rules and the admission webhook's checks.
import type { FieldProblem } from './issues.js';
import type { OgxServer } from './ogxserver.js';

export function checkOgxRules(_server: OgxServer): FieldProblem[] {
  return [];
}
