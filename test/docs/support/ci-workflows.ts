/**
 * The workflows users are given and the repository's own: docs/ci.md's, each a recipe, and .github/workflows/*.yml.
 * test/docs/workflows.test.ts runs actionlint on each, test/docs/ci-conventions.test.ts checks Pulumi's CI
 * conventions on each (and that this list is every workflow of the page).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT, recipe } from "./code-blocks";

/** Every workflow docs/ci.md gives, by its recipe's address. */
export const DOCS_WORKFLOWS = [
  "docs/ci.md#workflow",
  "docs/ci.md#bill-workflow",
  "docs/ci.md#drift-workflow",
  "docs/ci.md#oidc-workflow",
];

/** The repository's own workflows, by path. */
export const REPO_WORKFLOWS = fs
  .readdirSync(path.join(REPO_ROOT, ".github/workflows"))
  .map((name) => `.github/workflows/${name}`);

/** A workflow's text, by recipe address or path. */
export const workflowText = (where: string): string =>
  where.includes("#") ? recipe(where) : fs.readFileSync(path.join(REPO_ROOT, where), "utf8");
