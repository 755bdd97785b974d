// Plans for the generator tests: the shipped starter 0.7.1 base through planLlsd, and small inline
// bases of older layouts with a release profile written here (built on the shipped 0.7 profile, so
// fields a later profile schema adds keep their 0.7 values), so these tests do not depend on which
// release profiles and base configs the catalog ships.
import { parseLlsd } from '../../src/llsd/llsd.js';
import type { ReleaseProfile } from '../../src/catalog/catalog.js';
import { generateConfig } from '../../src/llsd/generate.js';
import type { GenerateOutcome } from '../../src/core/config-file.js';
import { profileFor } from '../../src/catalog/versions.js';
import { catalogReleaseFor, catalogReleases } from '../../src/catalog/catalog.js';
import { compareVersions } from '../../src/catalog/versions.js';
import { inventoryOf } from '../../src/krm/inventory.js';
import { parseYaml11 } from '../../src/krm/yaml.js';
import { planLlsd, type Plan } from '../../src/llsd/plan.js';
import { parseOgxServer, type OgxServer } from '../../src/ogx/ogxserver.js';
import { planOgxServer, type OgxPlan } from '../../src/ogx/plan.js';
import { itemFrom, llsdYaml } from '../support.js';

function llsdOf(spec: string, metadata?: string) {
  const parsed = parseLlsd(itemFrom(llsdYaml(spec, metadata)).object);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.llsd;
}

/** A plan against the shipped starter distribution at `release` (chosen with the release annotation). */
export function starterPlan(spec: string, release = '0.7.1'): Plan {
  const metadata = `name: demo\n  namespace: ai\n  annotations:\n    llamastack.io/release: "${release}"`;
  const planned = planLlsd(llsdOf(spec, metadata), inventoryOf([]));
  if (!planned.ok) throw new Error(JSON.stringify(planned.problems));
  return planned.plan;
}

const profile07 = (): ReleaseProfile => {
  const profile = profileFor('0.7.1');
  if (!profile) throw new Error('no 0.7 release profile');
  return profile;
};

/** llama-stack 0.2.x: the old layout (notes §1.7, §3.1). */
export const profile02 = (): ReleaseProfile => ({
  ...profile07(),
  since: '0.2.0',
  layout: 'top-level-stores',
  nameKey: 'image_name',
  renamedApis: { responses: 'agents' },
  inferenceUrlHasApiPrefix: false,
  toolGroups: 'registered',
  serverWorkers: false,
  defaultShieldId: false,
});

/** llama-stack 0.3.x: storage backends, pre-0.4 provider keys, tool groups still registered. */
export const profile03 = (): ReleaseProfile => ({
  ...profile07(),
  since: '0.3.0',
  layout: 'storage-backends',
  nameKey: 'image_name',
  renamedApis: { responses: 'agents' },
  inferenceUrlHasApiPrefix: false,
  toolGroups: 'registered',
  defaultShieldId: false,
});

/** llama-stack 0.4.x: inference base_url with /v1, safety.default_shield_id, file_processors. */
export const profile04 = (): ReleaseProfile => ({
  ...profile03(),
  since: '0.4.0',
  inferenceUrlHasApiPrefix: true,
  defaultShieldId: true,
});

/** A plan with an inline base config and profile, for `release`. */
export function inlinePlan(spec: string, release: string, profile: ReleaseProfile, baseYaml: string): Plan {
  const parsed = parseYaml11(baseYaml);
  if (parsed.problem) throw new Error(parsed.problem.message);
  return {
    llsd: llsdOf(spec),
    distributionName: 'test',
    image: `docker.io/llamastack/distribution-test:${release}`,
    release,
    profile,
    catalogRelease: catalogReleaseFor(release) ?? olderCatalogRelease(release),
    baseConfig: parsed.value as Record<string, unknown>,
  };
}

/**
 * A fixture release the catalog lacks (0.3.5: no 0.3 release is in it) answers with the newest
 * catalog release before it, whose provider registry the render then reads.
 */
function olderCatalogRelease(release: string): string {
  const older = catalogReleases().filter((r) => compareVersions(r, release) <= 0);
  return older[older.length - 1] ?? release;
}

/** A small 0.2.24-style base (after upstream's starter and postgres-demo run.yaml of that tag). */
export const base02 = `
version: 2
image_name: test
apis: [agents, files, inference, safety, telemetry, tool_runtime, vector_io]
providers:
  inference:
  - provider_id: vllm-inference
    provider_type: remote::vllm
    config:
      url: \${env.VLLM_URL:=http://localhost:8000/v1}
      api_token: \${env.VLLM_API_TOKEN:=fake}
  - provider_id: sentence-transformers
    provider_type: inline::sentence-transformers
  vector_io:
  - provider_id: faiss
    provider_type: inline::faiss
    config:
      kvstore:
        type: sqlite
        db_path: \${env.SQLITE_STORE_DIR:=~/.llama/distributions/test}/faiss_store.db
  safety:
  - provider_id: llama-guard
    provider_type: inline::llama-guard
    config:
      excluded_categories: []
  agents:
  - provider_id: meta-reference
    provider_type: inline::meta-reference
    config:
      persistence_store:
        type: sqlite
        db_path: \${env.SQLITE_STORE_DIR:=~/.llama/distributions/test}/agents_store.db
      responses_store:
        type: sqlite
        db_path: \${env.SQLITE_STORE_DIR:=~/.llama/distributions/test}/responses_store.db
  telemetry:
  - provider_id: meta-reference
    provider_type: inline::meta-reference
    config:
      sinks: \${env.TELEMETRY_SINKS:=console,sqlite}
      sqlite_db_path: \${env.SQLITE_STORE_DIR:=~/.llama/distributions/test}/trace_store.db
  tool_runtime:
  - provider_id: brave-search
    provider_type: remote::brave-search
    config:
      api_key: \${env.BRAVE_SEARCH_API_KEY:=}
  - provider_id: tavily-search
    provider_type: remote::tavily-search
    config:
      api_key: \${env.TAVILY_SEARCH_API_KEY:=}
  - provider_id: rag-runtime
    provider_type: inline::rag-runtime
  files:
  - provider_id: meta-reference-files
    provider_type: inline::localfs
    config:
      storage_dir: \${env.FILES_STORAGE_DIR:=~/.llama/distributions/test/files}
      metadata_store:
        type: sqlite
        db_path: \${env.SQLITE_STORE_DIR:=~/.llama/distributions/test}/files_metadata.db
metadata_store:
  type: sqlite
  db_path: \${env.SQLITE_STORE_DIR:=~/.llama/distributions/test}/registry.db
inference_store:
  type: sqlite
  db_path: \${env.SQLITE_STORE_DIR:=~/.llama/distributions/test}/inference_store.db
models:
- metadata: {}
  model_id: \${env.INFERENCE_MODEL}
  provider_id: vllm-inference
  model_type: llm
- metadata:
    embedding_dimension: 384
  model_id: all-MiniLM-L6-v2
  provider_id: sentence-transformers
  model_type: embedding
shields:
- shield_id: \${env.SAFETY_MODEL}
vector_dbs: []
tool_groups:
- toolgroup_id: builtin::websearch
  provider_id: tavily-search
- toolgroup_id: builtin::rag
  provider_id: rag-runtime
server:
  port: 8321
`;

/** A small 0.3.5-style base (after upstream's starter run.yaml of that tag). */
export const base03 = `
version: 2
image_name: test
apis: [agents, files, inference, safety, tool_runtime, vector_io]
providers:
  inference:
  - provider_id: \${env.VLLM_URL:+vllm}
    provider_type: remote::vllm
    config:
      url: \${env.VLLM_URL:=}
      api_token: \${env.VLLM_API_TOKEN:=fake}
  - provider_id: sentence-transformers
    provider_type: inline::sentence-transformers
  vector_io:
  - provider_id: faiss
    provider_type: inline::faiss
    config:
      persistence:
        namespace: vector_io::faiss
        backend: kv_default
  safety:
  - provider_id: llama-guard
    provider_type: inline::llama-guard
    config:
      excluded_categories: []
  agents:
  - provider_id: meta-reference
    provider_type: inline::meta-reference
    config:
      persistence:
        agent_state:
          namespace: agents
          backend: kv_default
        responses:
          table_name: responses
          backend: sql_default
  tool_runtime:
  - provider_id: tavily-search
    provider_type: remote::tavily-search
    config:
      api_key: \${env.TAVILY_SEARCH_API_KEY:=}
  - provider_id: rag-runtime
    provider_type: inline::rag-runtime
  files:
  - provider_id: meta-reference-files
    provider_type: inline::localfs
    config:
      storage_dir: \${env.FILES_STORAGE_DIR:=~/.llama/distributions/test/files}
      metadata_store:
        table_name: files_metadata
        backend: sql_default
storage:
  backends:
    kv_default:
      type: kv_sqlite
      db_path: \${env.SQLITE_STORE_DIR:=~/.llama/distributions/test}/kvstore.db
    sql_default:
      type: sql_sqlite
      db_path: \${env.SQLITE_STORE_DIR:=~/.llama/distributions/test}/sql_store.db
  stores:
    metadata:
      namespace: registry
      backend: kv_default
    inference:
      table_name: inference_store
      backend: sql_default
    conversations:
      table_name: openai_conversations
      backend: sql_default
registered_resources:
  models: []
  shields: []
  vector_dbs: []
  tool_groups:
  - toolgroup_id: builtin::websearch
    provider_id: tavily-search
server:
  port: 8321
telemetry:
  enabled: true
vector_stores:
  default_provider_id: faiss
`;

export type Config = Record<string, any>;

export function configOf(outcome: GenerateOutcome): Config {
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.problems));
  return parseYaml11(outcome.config.text).value as Config;
}

export const generate = (plan: Plan): GenerateOutcome => generateConfig(plan);

/** The problems of an outcome as `path: message` lines (paths dotted), for compact assertions. */
export const problemLines = (outcome: GenerateOutcome): string[] =>
  outcome.problems.map((p) => `${p.severity ?? 'error'} ${p.path.join('.')}: ${p.message}`);

/** An OGXServer `demo` in `ai` with `spec` given as YAML text indented under `spec:`, at a release by the annotation. */
export function ogxServer(spec: string, release?: string): OgxServer {
  const annotations = release === undefined ? '' : `\n  annotations:\n    llamastack.io/release: "${release}"`;
  const parsed = parseOgxServer(
    itemFrom(`apiVersion: ogx.io/v1beta1\nkind: OGXServer\nmetadata:\n  name: demo\n  namespace: ai${annotations}\nspec:\n${spec}`).object,
  );
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.server;
}

/** Its plan with no other input objects; `base`, when given, replaces the base config. */
export function ogxPlan(spec: string, release?: string, base?: Record<string, unknown>): OgxPlan {
  const planned = planOgxServer(ogxServer(spec, release), inventoryOf([]));
  if (!planned.ok) throw new Error(JSON.stringify(planned.problems));
  return base ? { ...planned.plan, baseConfig: base } : planned.plan;
}
