// One place for the command-line help (STYLE §9); the README quotes it.

import { version } from '../version.js';

export { version };

export const help = {
  main: `llsd-render ${version}: render LlamaStackDistribution resources into a llama-stack config.yaml and Kubernetes manifests.

Usage:
  llsd-render                       KRM function: read a ResourceList on stdin, write one on stdout
  llsd-render build PATH...         render the YAML files under PATH into a manifest stream
  llsd-render validate PATH...      check the YAML files under PATH; print the results

Options:
  -h, --help       show help (also after a command: llsd-render build --help)
  -v, --version    print the version

Exit codes: 0 success, 1 at least one error result, 2 usage error.
Every error is also printed on stderr as <file>:<line>: <namespace>/<name>: <field.path>: <message>.
`,
  build: `Usage: llsd-render build [options] PATH...

Reads every *.yaml and *.yml file under each PATH (recursively; dot-files, dot-directories and
node_modules are skipped), renders each LlamaStackDistribution, and prints a multi-document YAML
stream of what to apply: the generated objects and the other resources, never the
LlamaStackDistributions, RenderConfigs, Kustomizations, Kptfiles or local-config objects.

Options:
  -o, --output DIR    write one file per LlamaStackDistribution into DIR (<name>.yaml, or
                      <namespace>/<name>.yaml), and the other resources into DIR/_passthrough.yaml
  --config FILE       render options: a RenderConfig (fn.llamastack.io/v1alpha1) or a ConfigMap
  --allow-empty       succeed when nothing is rendered (by default an empty result is an error,
                      because Argo CD prunes everything when a plugin prints nothing)
  -h, --help          show this help
`,
  validate: `Usage: llsd-render validate [options] PATH...

Checks every LlamaStackDistribution under each PATH as build would, and prints the results.
Exits 1 when there is an error.

Options:
  --config FILE       render options: a RenderConfig (fn.llamastack.io/v1alpha1) or a ConfigMap
  -h, --help          show this help
`,
} as const;
