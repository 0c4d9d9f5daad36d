/**
 * The public catalogue (distributions, pricing plans, data centres) as sets of codes, fetched once per
 * base URL per host process: check() and update() look inputs up in it before anything is ordered or
 * changed. The calls need no key and change nothing, so they are safe in a preview. A catalogue that
 * cannot be fetched is not an error: the lookup is skipped (undefined) and the service decides.
 */
import type { RimuClient } from "../client/index.js";

export interface Catalog {
  /** Listed distribution codes (older unlisted codes are still accepted by the service). */
  distros?: ReadonlySet<string>;
  /** VPS pricing plan codes. */
  plans?: ReadonlySet<string>;
  /** Data centres that take new servers (the listed ones). */
  dataCenters?: ReadonlySet<string>;
}

const cache = new Map<string, Promise<Catalog>>();

/** Forgets the cached catalogues (tests). */
export function resetCatalog(): void {
  cache.clear();
}

export function catalogFor(client: RimuClient, baseUrl: string): Promise<Catalog> {
  let catalog = cache.get(baseUrl);
  if (!catalog) {
    catalog = fetchCatalog(client);
    cache.set(baseUrl, catalog);
  }
  return catalog;
}

async function fetchCatalog(client: RimuClient): Promise<Catalog> {
  const [distros, plans, dataCenters] = await Promise.all([
    client.listDistributions().then(
      (r) => new Set((r.distro_infos ?? []).map((d) => d.distro_code)),
      () => undefined,
    ),
    client.listPricingPlans({ serverType: "VPS" }).then(
      (r) => new Set((r.pricing_plan_infos ?? []).map((p) => p.pricing_plan_code)),
      () => undefined,
    ),
    client.listDataCenters().then(
      (r) => new Set((r.data_center_infos ?? []).map((d) => d.data_center_location_code)),
      () => undefined,
    ),
  ]);
  // A failed fetch is retried on the next call instead of being cached.
  if (!distros || !plans || !dataCenters) queueMicrotask(() => cache.clear());
  return { distros, plans, dataCenters };
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
