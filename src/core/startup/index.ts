// The server's startup rules, checked at render time (docs/config-generation.md "Startup rules"). A
// config that breaks one of them makes the server stop at startup, or start and quietly misbehave;
// here it becomes an error (or a warning) at render time instead of a pod that crash-loops.
//
// Pure: the config is read, never changed, and nothing is substituted. Each family of rules has its
// file; each rule takes the read-only context (context.ts) and returns its problems, which are
// reported by rule (rule-ids.ts), then in the order found.
import { isPlainObject } from '../../lib/objects.js';
import {
  checkApisList,
  checkDependencies,
  checkNameAndProviders,
  checkProviderEntries,
  checkProviderIds,
  checkProviderTypes,
  checkSingleProviderApis,
} from './apis.js';
import { problem, ruleContext, type Rule, type StartupContext, type StartupProblem } from './context.js';
import { checkPaths, checkPlaceholders } from './env.js';
import { checkProviderSettings } from './provider-settings.js';
import { checkDefaults, checkModels, checkOtherResources } from './resources.js';
import { ruleRank, startupRuleIds } from './rule-ids.js';
import { checkServer } from './server.js';
import { checkStorage } from './storage.js';

export type { StartupContext, StartupProblem } from './context.js';
export { startupRuleIds, type StartupRuleId } from './rule-ids.js';

/** In the order they run; each rule's problems keep this order within their rule. */
const rules: readonly Rule[] = [
  checkNameAndProviders,
  checkProviderEntries,
  checkProviderTypes,
  checkProviderIds,
  checkSingleProviderApis,
  checkApisList,
  checkDependencies,
  checkProviderSettings,
  checkStorage,
  checkModels,
  checkOtherResources,
  checkDefaults,
  checkServer,
  checkPlaceholders,
  checkPaths,
];

export function checkStartupRules(config: Record<string, unknown>, context: StartupContext): StartupProblem[] {
  if (!isPlainObject(config)) return [problem('error', [], 'config-shape', 'the config must be a mapping with `providers` and the distribution name')];
  const ctx = ruleContext(config, context);
  // By rule (rule-ids.ts), then in the order found: one list per rule, joined.
  const byRule: StartupProblem[][] = startupRuleIds.map(() => []);
  for (const rule of rules) for (const p of rule(ctx)) byRule[ruleRank(p.rule)]?.push(p);
  return byRule.flat();
}
