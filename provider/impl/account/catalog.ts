/**
 * The public catalogue (distributions, pricing plans, data centres) as sets of codes, fetched once per
 * base URL and kept like the other shared reads (LISTING_MAX_AGE_MS, account-view.ts): check() and
 * update() look inputs up in it before anything is ordered or changed. The calls need no key and change
 * nothing, so they are safe in a preview. A list that cannot be fetched is undefined, with the reason in
 * `unread` (check() then warns that the lookup did not run, or fails the preview on a wrong base URL).
 */
import type { RimuClient } from "../../client/index.js";
import { LISTING_MAX_AGE_MS } from "./account-view.js";
import { runState, type RunContext } from "../engine/run-context.js";

export interface Catalog {
  /** Listed distribution codes (older unlisted codes are still accepted by the service). */
  distros?: ReadonlySet<string>;
  /** VPS pricing plan codes. */
  plans?: ReadonlySet<string>;
  /** Data centres that take new servers (the listed ones). */
  dataCenters?: ReadonlySet<string>;
  /** Why a list is missing: the first failed read's error. */
  unread?: unknown;
}

/** The run's catalogues, by base URL, and when each was read. */
const CATALOGUES = runState(
  "the public catalogue, by base URL",
  () => new Map<string, { at: number; catalog: Promise<Catalog> }>(),
);

/**
 * The catalogue of `baseUrl`, read once per run (`run`) and again when older than LISTING_MAX_AGE_MS; or, where a
 * test tuned the run to (RunTuning.keptCatalogues), once for that run and every run begun after it.
 */
export function catalogFor(run: RunContext, client: RimuClient, baseUrl: string): Promise<Catalog> {
  const keptForAllRuns = run.tuning.keptCatalogues;
  const kept = keptForAllRuns?.get(baseUrl) as Promise<Catalog> | undefined;
  if (kept) return kept;
  const catalog = catalogOfRun(run, client, baseUrl);
  keptForAllRuns?.set(baseUrl, catalog);
  return catalog;
}

function catalogOfRun(run: RunContext, client: RimuClient, baseUrl: string): Promise<Catalog> {
  const cache = run.get(CATALOGUES);
  let kept = cache.get(baseUrl);
  if (!kept || Date.now() - kept.at >= LISTING_MAX_AGE_MS) {
    kept = { at: Date.now(), catalog: fetchCatalog(client) };
    cache.set(baseUrl, kept);
  }
  return kept.catalog;
}

async function fetchCatalog(client: RimuClient): Promise<Catalog> {
  let unread: unknown;
  const failed = (error: unknown) => {
    unread ??= error;
    return undefined;
  };
  const [distros, plans, dataCenters] = await Promise.all([
    client.listDistributions().then((r) => new Set((r.distro_infos ?? []).map((d) => d.distro_code)), failed),
    client
      .listPricingPlans({ serverType: "VPS" })
      .then((r) => new Set((r.pricing_plan_infos ?? []).map((p) => p.pricing_plan_code)), failed),
    client
      .listDataCenters()
      .then((r) => new Set((r.data_center_infos ?? []).map((d) => d.data_center_location_code)), failed),
  ]);
  // Kept like a success (one read per run while it lasts), so a service that is down is asked once.
  return unread === undefined ? { distros, plans, dataCenters } : { distros, plans, dataCenters, unread };
}

/** What the catalogue says about the inputs that name catalogue entries. */
export interface CatalogFindings {
  /** Refusals, per input. */
  failures: { property: string; reason: string }[];
  /** Warnings: valid on the service but worth knowing. */
  warnings: string[];
}

/**
 * Looks up distro, pricingPlanCode and dcLocation. `changed` limits the lookup to inputs that are
 * new or changed (an existing VPS in a data centre that no longer takes new servers is fine).
 */
export function catalogFindings(
  catalog: Catalog,
  inputs: { distro?: unknown; pricingPlanCode?: unknown; dcLocation?: unknown },
  changed: (name: "distro" | "pricingPlanCode" | "dcLocation") => boolean,
): CatalogFindings {
  const findings: CatalogFindings = { failures: [], warnings: [] };
  const { distro, pricingPlanCode, dcLocation } = inputs;
  if (typeof distro === "string" && changed("distro") && catalog.distros && !catalog.distros.has(distro)) {
    findings.warnings.push(
      `distro ${distro} is not in RimuHosting's list of distributions (getDistributions()): older codes are ` +
        `still accepted, a typo is refused when the VPS is installed. Listed: ${[...catalog.distros].join(", ")}.`,
    );
  }
  const refuse = (
    property: "pricingPlanCode" | "dcLocation",
    value: unknown,
    known: ReadonlySet<string> | undefined,
    problem: string,
    dataSource: string,
  ) => {
    if (typeof value !== "string" || !changed(property) || !known || known.has(value)) return;
    findings.failures.push({
      property,
      reason: `${value} ${problem}; use one of ${[...known].join(", ")} (see ${dataSource}())`,
    });
  };
  refuse("pricingPlanCode", pricingPlanCode, catalog.plans, "is not a VPS pricing plan", "getPricingPlans");
  refuse("dcLocation", dcLocation, catalog.dataCenters, "takes no new servers", "getDataCenters");
  return findings;
}
