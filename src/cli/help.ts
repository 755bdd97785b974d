// One place for the command-line help (STYLE §9); the README quotes it.

import { version } from '../version.js';

export { version };

export const help = {
  main: `llsd-render ${version}: render LlamaStackDistribution and OGXServer resources into a config.yaml and Kubernetes manifests.

Usage:
  llsd-render                       KRM function: read a ResourceList on stdin, write one on stdout
  llsd-render build PATH...         render the YAML files under PATH into a manifest stream
  llsd-render validate PATH...      check the YAML files under PATH; print the results
  llsd-render convert PATH...       print the YAML files under PATH with v1alpha1 LLSDs as v1alpha2
                                    (--to ogx.io/v1beta1: every LLSD as an OGXServer)
  llsd-render schema [--kind OGXServer] --json-schema | --crd
                                    print the JSON Schema of the LLSD (or OGXServer) spec, or the CRD
  llsd-render webhook --cert FILE --key FILE
                                    serve the LLSD CRD's conversion webhook (HTTPS)
  llsd-render image-labels CONFIG   print the OCI labels that carry a config.yaml in an image

Options:
  -h, --help       show help (also after a command: llsd-render build --help)
  -v, --version    print the version

Exit codes: 0 success, 1 at least one error result or stdout cut short, 2 usage error.
Every error is also printed on stderr as <file>:<line>: <namespace>/<name>: <field.path>: <message>.
`,
  build: `Usage: llsd-render build [options] PATH...

Reads every *.yaml and *.yml file under each PATH (recursively; dot-files, dot-directories and
node_modules are skipped; a symbolic link is followed only while it stays under the PATHs given),
renders each LlamaStackDistribution (llamastack.io/v1alpha2 or v1alpha1) and OGXServer
(ogx.io/v1beta1), and prints a multi-document YAML stream of what to
apply: the generated objects and the other resources, never the LlamaStackDistributions,
OGXServers, RenderConfigs, Kustomizations, Kptfiles or local-config objects.

Options:
  -o, --output DIR    write one file per LlamaStackDistribution or OGXServer into DIR (<name>.yaml, or
                      <namespace>/<name>.yaml), and the other resources into DIR/_passthrough.yaml
  --config FILE       render options: a RenderConfig (fn.llamastack.io/v1alpha1) or a ConfigMap
                      (each option it sets wins over a RenderConfig among the inputs)
  --allow-empty       succeed when nothing is rendered (by default an empty result is an error,
                      because Argo CD prunes everything when a plugin prints nothing)
  --offline           read the configs of images from the cache only; contact no registry
  -h, --help          show this help
`,
  validate: `Usage: llsd-render validate [options] PATH...

Checks every LlamaStackDistribution and OGXServer under each PATH as build would, and prints the
results. Exits 1 when there is an error.

Options:
  --config FILE       render options: a RenderConfig (fn.llamastack.io/v1alpha1) or a ConfigMap
                      (each option it sets wins over a RenderConfig among the inputs)
  --offline           read the configs of images from the cache only; contact no registry
  -h, --help          show this help
`,
  convert: `Usage: llsd-render convert [--to VERSION] PATH...

Reads every *.yaml and *.yml file under each PATH as build does, and prints all their documents,
in order, as one multi-document YAML stream, with every LlamaStackDistribution that is not in
VERSION converted to it. The other documents, OGXServers among them, are printed as they are,
except the objects an earlier build generated (they carry the annotation
llamastack.io/generated-from), which are left out as build leaves them out. Every
LlamaStackDistribution, one already in VERSION too, is checked against the schema of its version
first; errors go to stderr and nothing is printed.

Fields the other version cannot hold are kept as JSON in the annotation
llamastack.io/conversion-data (a warning names them) and restored when the object is converted
back, so converting there and back gives the original.

With --to ogx.io/v1beta1 every LLSD (v1alpha1 or v1alpha2) becomes an OGXServer named
<name>-ogx, with the annotations ogx.io/adopt-networking (and ogx.io/adopt-storage when it has
storage) naming the LLSD, so its Service and PVC are kept. Providers become typed OGXServer
providers where every setting has a field, custom ones otherwise. Each field with no OGXServer
equivalent is a warning naming it and saying what to do instead; there is no way back.

Options:
  --to VERSION        v1alpha2 (default), v1alpha1, or ogx.io/v1beta1 (v1beta1 for short)
  -h, --help          show this help
`,
  webhook: `Usage: llsd-render webhook --cert FILE --key FILE [--port PORT] [--address ADDRESS]

Serves the LlamaStackDistribution CRD's conversion webhook over HTTPS: POST an
apiextensions.k8s.io/v1 ConversionReview to /convert (or /) and every object in it is converted
to request.desiredAPIVersion, as convert does (lossless, through the annotation
llamastack.io/conversion-data). GET /healthz answers 200. Stops on SIGTERM or SIGINT.
The OGXServer CRD has one version and needs no conversion webhook.

Options:
  --cert FILE         PEM server certificate (the CRD's caBundle must trust it)
  --key FILE          PEM private key of the certificate
  --port PORT         port to listen on (default 9443; 0 picks a free one)
  --address ADDRESS   address to listen on (default 127.0.0.1; use 0.0.0.0 in a pod)
  -h, --help          show this help

Bounds on every client (environment; a value that cannot be used stops it with exit 1):
  LLSD_RENDER_WEBHOOK_REQUEST_TIMEOUT   seconds from a request's first byte until its headers,
                      body and answer are done (default 30); then 408 and the connection closed
  LLSD_RENDER_WEBHOOK_HANDSHAKE_TIMEOUT seconds from a connection until its TLS handshake is
                      done (default 10); then the connection is closed
  LLSD_RENDER_WEBHOOK_MAX_BODY_MB       the largest request body (default 16); larger is 413
  LLSD_RENDER_WEBHOOK_MAX_INFLIGHT_MB   the request bodies held at once, all clients together
                      (default 32); past it 503 with Retry-After
  LLSD_RENDER_WEBHOOK_MAX_CONNECTIONS   connections open at once (default 256); one more
                      replaces the oldest serving no request, or is closed if all are busy
Before it is parsed, a body weighs its size (twice or three times with text above U+00FF or
runs of 16 digits) or 64 bytes per JSON value and key it holds (escapes and a conversion
record's JSON count too), whichever is more, and the two sizes above bound weights (16 MiB:
262144 values and keys). A body nested more than 200 levels deep is refused with 400, and a
review of more than 10000 objects fails.
`,
  schema: `Usage: llsd-render schema [--kind KIND] --json-schema [--document] | --crd

Prints a schema generated from the field docs of a kind: LlamaStackDistribution
(llamastack.io/v1alpha2, the default) or OGXServer (ogx.io/v1beta1).

Options:
  --kind KIND         LlamaStackDistribution (default) or OGXServer
  --json-schema       the JSON Schema (draft 2020-12) of \`spec\`, as JSON
  --document          with --json-schema: the schema of a whole resource (apiVersion, kind,
                      metadata, spec), for an editor:
                      # yaml-language-server: $schema=llsd.schema.json
  --crd               the CustomResourceDefinition, as YAML, with CEL rules for the checks
                      across fields that the API server can run: for LlamaStackDistribution
                      v1alpha2 stored and v1alpha1 served; for OGXServer v1beta1, with the
                      OGX operator's rules and messages
  -h, --help          show this help
  -v, --version       print the version

These schemas check the shape of each field; \`llsd-render validate\` checks every rule.
`,
  'image-labels': `Usage: llsd-render image-labels [--release RELEASE] [--format lines|flags|json] [--layer DIGEST --path PATH] CONFIG

Prints the OCI labels that carry CONFIG, a config.yaml, in a distribution image of the target
release, as that release's images carry them, so that the OGX operator and llsd-render read it as
the base config of an OGXServer or LLSD with \`spec.distribution.image\`. An OGX release (the default:
a release since llama-stack became OGX) gets OGX's labels:
  com.ogx.config.<FILE>                 the config, base64-encoded (FILE: CONFIG's file name)
  com.ogx.distribution.name             the config's \`distro_name\`
  com.ogx.distribution.version          RELEASE as written (only with --release)
  com.ogx.distribution.default-config   FILE, the config the operator reads
  com.ogx.distribution.configs          FILE
  org.opencontainers.image.version      RELEASE (only with --release)
A release before OGX (or --layer without --release) gets llama-stack's, read by llsd-render only:
  io.llamastack.config.base64   the config, base64-encoded (configs under 50 KB)
  io.llamastack.config.version  its config schema version (2)
  org.opencontainers.image.version  RELEASE (only with --release)
With --layer and --path, the config stays a file in the image and the labels point at it:
  io.llamastack.config.layer    the digest of the (compressed) layer that holds the file
  io.llamastack.config.path     the file's path in the image
The file is checked first: valid YAML, a mapping, a supported \`version\`.

Add them after the build, e.g.:
  buildah config $(llsd-render image-labels --release "$RELEASE" --format flags config.yaml) CONTAINER
  crane mutate $(llsd-render image-labels --release "$RELEASE" --format flags config.yaml) IMAGE

Options:
  --release RELEASE   the release the image runs, as the annotation llamastack.io/release takes it
                      (X.Y.Z, vX.Y.Z, or an rh release vX.Y.Z+rhaiv.N; one older than every known
                      release, or not a release, is refused with the list of known ones; a newer
                      one is taken as the newest known line): which labels, and the version labels
  --format FORMAT     lines (default: KEY=VALUE per line), flags (--label=KEY=VALUE per line)
                      or json (an object)
  --layer DIGEST      with --path: the layer-reference labels instead of base64 (io.llamastack only)
  --path PATH         the absolute path of the config file in the image, e.g. /app/config.yaml
  -h, --help          show this help
`,
} as const;
