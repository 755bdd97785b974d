// A postgres user, password or database read from a Secret: the server converts a substituted value
// that reads as a number, and a number there stops it. Where the Secret is in the input, its value
// is checked (`secret-value-not-text`, never quoting it); only where it is not is the user warned
// to keep it non-numeric (`numeric-secret-value`). Said for every such field, it was noise: 333
// warnings for the bench's 1,000 LLSDs, whose Secrets were all in the input and all text.
import { describe, expect, it } from 'vitest';
import { run, tempDir, writeTree } from './run.js';

const llsd = `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: chat, namespace: ai}
spec:
  distribution: {name: starter}
  storage:
    sql:
      type: postgres
      host: pg.ai.svc
      port: {secretKeyRef: {name: pg, key: port}}
      database: llamastack
      user: {secretKeyRef: {name: pg, key: user}}
      password: {secretKeyRef: {name: pg, key: password}}
`;
const secret = (password: string): string => `---
apiVersion: v1
kind: Secret
metadata: {name: pg, namespace: ai}
stringData: {port: "5432", user: llama, password: "${password}"}
`;

function validate(text: string): ReturnType<typeof run> {
  return run(['validate', 'in.yaml'], { cwd: writeTree(tempDir(), { 'in.yaml': text }) });
}
const coded = (stderr: string, code: string): string[] =>
  stderr
    .split('\n')
    .filter((line) => line.endsWith(`[${code}]`))
    .map((line) => /(spec\.[\w.]+):/.exec(line)?.[1] ?? line);

describe('postgres fields read from a Secret', () => {
  it('the Secret not in the input: a numeric-secret-value warning for the user and the password, none for the port', () => {
    const r = validate(llsd);
    expect(r.status, r.stderr).toBe(0);
    expect(coded(r.stderr, 'numeric-secret-value')).toEqual(['spec.storage.sql.user', 'spec.storage.sql.password']);
    expect(r.stderr).toContain(
      'spec.storage.sql.password: warning: is read from key "password" of the Secret "pg", which is not in the input to be checked; llama-stack turns a ' +
        'substituted value that reads as a number or as true/false into that type, so a password such as 123456 would stop the server',
    );
  });

  it('the Secret in the input, its values text: no warning about them', () => {
    const r = validate(llsd + secret('pw-7-correct'));
    expect(r.status, r.stderr).toBe(0);
    expect(coded(r.stderr, 'numeric-secret-value')).toEqual([]);
    expect(coded(r.stderr, 'secret-value-not-text')).toEqual([]);
  });

  it('the Secret in the input, the password all digits: secret-value-not-text at the password, the value never shown', () => {
    const r = validate(llsd + secret('20261129'));
    expect(coded(r.stderr, 'secret-value-not-text')).toEqual(['spec.storage.sql.password']);
    expect(coded(r.stderr, 'numeric-secret-value')).toEqual([]);
    expect(r.stderr).not.toContain('20261129');
  });
});
