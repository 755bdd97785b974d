// KRM mode as a kustomize generator: kustomize passes the LLSD as functionConfig (v4 also as the
// only item) and none of the kustomization's resources (issue 18: the Secret warning claimed the
// Secret was missing while `secret.yaml` was listed in `resources:`).
import { describe, expect, it } from 'vitest';
import { parseResourceList, quickstartText, resourceList, run } from './run.js';

describe('KRM mode as a kustomize generator', () => {
  const llsd = quickstartText();

  it('says a generator cannot check the Secret (an info), instead of claiming it is missing', () => {
    const r = run([], { input: resourceList([llsd], llsd) });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('which is not in the input');
    const results = (parseResourceList(r.stdout) as unknown as { results?: Array<{ severity: string; message: string }> }).results ?? [];
    expect(results).toEqual(
      expect.arrayContaining(
        [
          {
            severity: 'info',
            message: expect.stringMatching(
              /^refers to the Secret "vllm-credentials", which a kustomize generator cannot check: kustomize gives a generator none of the kustomization's resources; make sure it exists where the pod runs$/,
            ),
          },
        ].map((r) => expect.objectContaining(r)),
      ),
    );
  });

  it('a transformer (the LLSD among the items, a RenderConfig as functionConfig) still reports a Secret not in the input', () => {
    const config = 'apiVersion: llamastack.io/v1alpha2\nkind: RenderConfig\nmetadata: {name: opts}\nspec: {secretPolicy: strict}\n';
    const transformer = run([], { input: resourceList([llsd], config) });
    expect(transformer.status).toBe(1);
    expect(transformer.stdout).toMatch(/refers to the Secret .?.vllm-credentials.?., which is not in the input/);
  });
});
