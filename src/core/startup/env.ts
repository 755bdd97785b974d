// Startup rules on values as the container's env makes them: each `${env.…}` placeholder (set when
// it has no default, well formed, recognised), and each path on the server's filesystem (on the
// state volume once the placeholders take their defaults).
import { placeholdersIn, type Placeholder } from '../placeholders.js';
import { isCredentialName } from '../../lib/url-credentials.js';
import { formatFieldPath } from '../../krm/item.js';
import { isPlainObject } from '../../lib/objects.js';
import { clip, code, listOf, quote } from '../../lib/quote.js';
import { startupFacts } from '../../catalog/startup-facts.js';
import { firstWith, howToSet, possiblyOn, problem, whenUnset, type Path, type Provider, type RuleContext, type StartupProblem } from './context.js';
import { releaseName } from '../../catalog/versions.js';

// ---------------------------------------------------------------------------------------------
// Env placeholders

export function checkPlaceholders(ctx: RuleContext): StartupProblem[] {
  // Entries the server drops before expanding them, and where it stops expanding.
  const skipped = new Set<unknown>();
  const byPath = new Map<string, Provider>();
  for (const p of ctx.providers) {
    byPath.set(formatFieldPath(p.path), p);
    if (p.id.state === 'removed' && p.id.variable === undefined) skipped.add(p.entry);
    else if (p.id.state === 'removed') skipped.add(p.config); // `${env.X:=__disabled__}` with X unset
  }
  const server = ctx.config.server;
  let authConfig: Record<string, unknown> | undefined;
  if (isPlainObject(server) && isPlainObject(server.auth) && isPlainObject(server.auth.provider_config)) {
    const type = server.auth.provider_config.type;
    // A type that resolves to empty switches auth off, and the rest of its config is not expanded.
    if (typeof type === 'string' && whenUnset(ctx, type) === '') authConfig = server.auth.provider_config;
  }
  const out: StartupProblem[] = [];
  // One path, pushed and popped on the way down (problems format it when they are made).
  const path: Array<string | number> = [];
  const visit = (value: unknown, provider: Provider | undefined): void => {
    if (typeof value === 'string') {
      // Most strings have no placeholder: nothing to look at, nothing to copy.
      if (value.includes('${')) out.push(...stringProblems(ctx, value, path, provider));
      return;
    }
    // Only entries and configs are skipped: no string is looked up.
    if (value === null || typeof value !== 'object' || skipped.has(value)) return;
    if (Array.isArray(value)) {
      const providerList = provider === undefined && path.length === 2 && path[0] === 'providers';
      value.forEach((item: unknown, index) => {
        path.push(index);
        visit(item, providerList ? byPath.get(formatFieldPath(path)) : provider);
        path.pop();
      });
      return;
    }
    if (!isPlainObject(value)) return;
    for (const key of Object.keys(value)) {
      path.push(key);
      if (key.includes('${')) {
        const message = 'is a key with a placeholder; the server substitutes values only, so the key stays literally as written';
        out.push(problem('warning', path, 'env-placeholders', message, 'placeholder-form'));
      }
      if (value !== authConfig || key === 'type') visit(value[key], provider);
      path.pop();
    }
  };
  visit(ctx.config, undefined);
  return out;
}

function stringProblems(ctx: RuleContext, text: string, path: Path, provider: Provider | undefined): StartupProblem[] {
  const out: StartupProblem[] = [];
  const placeholders = placeholdersIn(text, ctx.bash);
  // A credential's text is never quoted, not even in a placeholder (its default may be the secret).
  const secret = (): boolean => isCredentialName(String(path[path.length - 1] ?? ''));
  const shown = (raw: string): string => (secret() ? 'the placeholder of this credential' : code(raw));
  for (const p of placeholders) {
    if (p.op === '' && ctx.env.maybe(p.name)) {
      const message =
        `${shown(p.raw)} has no default, so the server stops at startup unless ${clip(p.name)} comes from ${listOf(ctx.env.unknownSources)}, ` +
        `which the render cannot read: ${howToSet(p.name)}, or write \`\${env.${clip(p.name)}${ctx.bash ? ':=' : ':'}<default>}\``;
      out.push(problem('warning', path, 'env-placeholders', message, 'env-conditional'));
    } else if (p.op === '' && (!ctx.env.has(p.name) || ctx.env.value(p.name) === '')) {
      const unset = ctx.env.has(p.name) ? `when ${clip(p.name)} is empty, as the pod sets it` : `when ${clip(p.name)} is unset`;
      const inDisabled =
        provider && provider.id.state === 'conditional'
          ? ` The provider is switched by ${provider.id.variable}, but the server expands its config even while it is disabled.`
          : provider && provider.id.state === 'disabled'
            ? ' The provider is off in this pod, but the server expands its config even while it is disabled.'
            : '';
      const message =
        `${shown(p.raw)} has no default, so the server stops at startup ${unset}: ${howToSet(p.name)}, ` +
        `or write \`\${env.${clip(p.name)}${ctx.bash ? ':=' : ':'}<default>}\`.${inDisabled}`;
      out.push(problem('error', path, 'env-placeholders', message));
    }
    if (p.op !== '' && p.text.includes('{')) {
      const message = `${shown(p.raw)}: a default ends at the first \`}\`, so the rest of the text after it stays literal; a default cannot contain \`}\``;
      out.push(problem('warning', path, 'env-placeholders', message, 'placeholder-form'));
    }
    if (!ctx.bash && p.op === ':=' && (p.text.startsWith('=') || p.text.startsWith('+'))) {
      const message =
        `${shown(p.raw)}: ${releaseName(ctx.release)} reads \`\${env.X:default}\` and \`\${env.X+value}\` ` +
        `(\`:=\` and \`:+\` arrived in ${firstWith((f) => f.envSyntax === 'bash')}), so the default here starts with ${quote(p.text[0])}`;
      out.push(problem('warning', path, 'env-placeholders', message, 'placeholder-form'));
    }
  }
  // `${…}` that is not a placeholder the server recognises stays in the value literally.
  for (const snippet of strayDollarBraces(text, placeholders)) {
    const why = secret()
      ? 'the forms are `${env.NAME}`, `${env.NAME:=default}` and `${env.NAME:+value}`, and a credential comes from a Secret'
      : whyNotPlaceholder(snippet, ctx.bash);
    const message = `${shown(snippet)} is not a placeholder the server substitutes, so it stays in the value literally: ${why}`;
    out.push(problem('warning', path, 'env-placeholders', message, 'placeholder-form'));
  }
  return out;
}

/** Each `${…}` of `text` outside its placeholders, to its first `}`; none for almost every text, so the empty list is shared. */
function strayDollarBraces(text: string, placeholders: readonly Placeholder[]): readonly string[] {
  // Every `${` of a text made of placeholders alone starts one of them: nothing to scan for.
  if (placeholders.length === 1 && placeholders[0]?.raw === text) return noStrays;
  const covered = placeholders.map((p) => [p.index, p.index + p.raw.length] as const);
  const strays: string[] = [];
  for (const m of text.matchAll(/\$\{/g)) {
    if (covered.some(([from, to]) => m.index >= from && m.index < to)) continue;
    const end = text.indexOf('}', m.index);
    strays.push(end < 0 ? text.slice(m.index) : text.slice(m.index, end + 1));
  }
  return strays.length === 0 ? noStrays : strays;
}
const noStrays: readonly string[] = [];

function whyNotPlaceholder(snippet: string, bash: boolean): string {
  const m = /^\$\{env\.([^:+}]*)(.*)\}$/.exec(snippet);
  if (!m) return 'only `${env.NAME}` placeholders are substituted';
  const [, name = '', rest = ''] = m;
  if (!/^[A-Z0-9_]+$/.test(name)) {
    const upper = clip(name.toUpperCase().replace(/[^A-Z0-9_]/g, '_'));
    return `the name must be upper case letters, digits and _ (\`\${env.${upper}}\`)`;
  }
  if (!bash) return 'this release reads `${env.NAME}`, `${env.NAME:default}` and `${env.NAME+value}`';
  if (rest.startsWith(':-')) return `\`:-\` is not supported; write \`\${env.${clip(name)}${clip(':=' + rest.slice(2))}}\``;
  if (rest === ':') return `write \`\${env.${clip(name)}:=}\` for an empty default`;
  if (rest.startsWith('+')) return `the older \`+\` form; write \`\${env.${clip(name)}${clip(':+' + rest.slice(1))}}\``;
  if (rest.startsWith(':')) return `write \`\${env.${clip(name)}${clip(':=' + rest.slice(1))}}\` for a default`;
  return 'the forms are `${env.NAME}`, `${env.NAME:=default}` and `${env.NAME:+value}`';
}

// ---------------------------------------------------------------------------------------------
// Paths on the server's filesystem

export function checkPaths(ctx: RuleContext): StartupProblem[] {
  const home = ctx.profile.image.home.replace(/\/+$/, '');
  const keys = pathKeys();
  const skipped = new Set<unknown>(ctx.providers.filter((p) => !possiblyOn(p)).map((p) => p.entry));
  // Provider configs with keys that are paths only there (configs/startup-facts.yaml `paths.providerKeys`).
  const providerKeys = new Map<unknown, string[]>();
  for (const p of ctx.providers) {
    const own = p.type !== undefined ? keys.byType.get(p.type) : undefined;
    if (own) providerKeys.set(p.config, [...(providerKeys.get(p.config) ?? []), ...own]);
  }
  const out: StartupProblem[] = [];
  const path: Array<string | number> = [];
  const visit = (value: unknown): void => {
    if (value === null || typeof value !== 'object' || skipped.has(value)) return;
    if (Array.isArray(value)) {
      value.forEach((item: unknown, index) => {
        path.push(index);
        visit(item);
        path.pop();
      });
    }
    if (!isPlainObject(value)) return;
    for (const key of Object.keys(value)) {
      const child = value[key];
      path.push(key);
      const isPath = keys.anywhere.has(key) || (keys.inProviders.has(key) && providerKeys.get(value)?.includes(key) === true);
      if (typeof child === 'string' && isPath) out.push(...pathProblems(ctx, child, path, home));
      else visit(child);
      path.pop();
    }
  };
  visit(ctx.config);
  return out;
}

/** configs/startup-facts.yaml `paths` as sets, made once: every key of every config is looked up in them. */
let pathKeySets: { anywhere: ReadonlySet<string>; inProviders: ReadonlySet<string>; byType: ReadonlyMap<string, readonly string[]> } | undefined;
function pathKeys(): NonNullable<typeof pathKeySets> {
  if (pathKeySets === undefined) {
    const { keys, providerKeys } = startupFacts().paths;
    pathKeySets = { anywhere: new Set(keys), inProviders: new Set(Object.values(providerKeys).flat()), byType: new Map(Object.entries(providerKeys)) };
  }
  return pathKeySets;
}

function pathProblems(ctx: RuleContext, text: string, path: Path, home: string): StartupProblem[] {
  const value = whenUnset(ctx, text);
  if (value === undefined || value === '' || value.startsWith('/') || value === ':memory:') return [];
  const unset = placeholdersIn(text, ctx.bash)
    .filter((p) => !ctx.env.has(p.name))
    .map((p) => p.name);
  const when = unset.length > 0 ? ` (with ${listOf(unset)} unset)` : '';
  if (value === '~' || value.startsWith('~/')) {
    const resolved = `/${value.slice(2)}`;
    if (resolved === home || resolved.startsWith(`${home}/`)) return [];
    const message =
      `${quote(value)}${when} resolves against the server's HOME (/: the image or the Deployment sets it) to ${clip(resolved)}, ` +
      `outside the state volume at ${home}: the data is lost when the pod restarts; write a path under ${home}`;
    return [problem('warning', path, 'state-paths', message, 'path-outside-state-volume')];
  }
  const message =
    `${quote(value)}${when} is a relative path, which resolves against the server's working directory, not the state volume at ${home}: ` +
    `the data is lost when the pod restarts; write an absolute path under ${home}`;
  return [problem('warning', path, 'state-paths', message, 'path-outside-state-volume')];
}
