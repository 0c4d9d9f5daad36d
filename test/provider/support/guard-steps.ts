/**
 * The guard's tests' steps (test/provider/impl/order-guard*.test.ts): configure() with budget settings over the
 * fixture's stack config, a VPS's inputs by name, and check() followed by create() or update() as the engine calls
 * them in `pulumi up --skip-preview` (no preview flag).
 */
import { expect } from "@jest/globals";
import * as impl from "../../../provider/impl/index";
import { APP_INPUTS, stackConfigWith, type ImplFixture } from "./impl-fixture";

export function guardSteps(fixture: () => ImplFixture) {
  const configure = (settings: Record<string, string>) =>
    impl.configure({ config: stackConfigWith(fixture().emulator.baseUrl, settings) });

  const vps = (name: string, extra: Record<string, unknown> = {}) => ({
    ...APP_INPUTS,
    domainName: `${name}.example.com`,
    creationScope: `shop/prod/${name}`,
    ...extra,
  });

  /** check() then create(). */
  async function up(inputs: Record<string, unknown>) {
    const checked = await impl.check({}, inputs);
    expect(checked.failures).toBeUndefined();
    return { ...(await impl.create(checked.inputs)), inputs: checked.inputs };
  }

  /** check() then update() of a VPS created from `olds`. */
  async function change(
    created: { id: string; outs: Record<string, unknown> },
    olds: Record<string, unknown>,
    news: Record<string, unknown>,
  ) {
    const checked = await impl.check(olds, news);
    expect(checked.failures).toBeUndefined();
    return impl.update(created.id, created.outs as never, checked.inputs);
  }

  return { configure, vps, up, change };
}
