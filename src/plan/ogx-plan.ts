// Plan for an `ogx.io/v1beta1` OGXServer: which OGX release, image and base config it renders
// against, and which of the operator's three config modes applies (reference GENERATION.md §1–§2).
// The generation (src/config/ogx-generate.ts) and the objects read only this plan.
import type { FieldProblem } from '../api/issues.js';
import type { OgxServer } from '../api/ogxserver.js';
import type { ReleaseProfile } from '../catalog/catalog.js';
import type { ImageLookup } from '../registry/labels.js';
import type { CaBundle } from './ca-bundle.js';

export interface OgxPlan {
  /** The parsed OGXServer, CRD defaults applied. */
  server: OgxServer;
  /** `spec.distribution.name`, or `custom` for `spec.distribution.image`. */
  distributionName: string;
  /** The image the Deployment runs (a named distribution: our catalog's pinned image of the release). */
  image: string;
  release: string;
  profile: ReleaseProfile;
  /** The catalog release whose schemas and provider registry answer for `release`. */
  catalogRelease: string;
  /**
   * GENERATION.md §1: `generated` (a config.yaml is generated from the base and the spec),
   * `override` (spec.overrideConfig is mounted as is, no secret env vars), `none` (the image's own config).
   */
  mode: 'generated' | 'override' | 'none';
  /** Generated mode: the base config as the server parses it. Shared: never changed (the generator copies it). */
  baseConfig?: Record<string, unknown>;
  /** Where `baseConfig` came from. */
  baseSource?: 'distribution' | 'baseConfig' | 'image-labels';
  /** Override mode: the user's ConfigMap, its key (mounted as config.yaml), the text and its parse. */
  overrideConfig?: { configMapName: string; key: string; text: string; value: Record<string, unknown> };
  /** `spec.tls.trust.caCertificates`: the valid certificates of the selected keys of that ConfigMap. */
  caBundle?: CaBundle;
  /** Set when the base config came from the labels of `spec.distribution.image`. */
  imageSource?: Extract<ImageLookup, { ok: true }>;
}

/** `problems` of a plan that succeeded are warnings. `pendingImage`: the image whose labels must be looked up first. */
export type OgxPlanOutcome = { ok: true; plan: OgxPlan; problems?: FieldProblem[] } | { ok: false; problems: FieldProblem[]; pendingImage?: string };
