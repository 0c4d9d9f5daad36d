// Which provider a process's settings belong to, from its URN: the engine names its default providers `default` or
// `default_<version>` (ProviderRequest.DefaultName in pulumi/pulumi); any other name is the program's own provider.
import { explicitProviderOf } from "../../../provider/impl/engine/settings-source.js";

const urn = (name: string): string => `urn:pulumi:dev::shop::pulumi:providers:rimuhosting::${name}`;

describe("explicitProviderOf", () => {
  it.each(["default", "default_0_1_0", "default_1_2_3_beta_1", "default_0_1_0_https___example_com_plugins"])(
    "%s is a default provider: the stack config",
    (name) => expect(explicitProviderOf(urn(name))).toBeUndefined(),
  );

  it.each(["default-eu", "defaults", "defaultEu", "alice", "eu::default"])(
    "%s is the program's provider, named in messages",
    (name) => expect(explicitProviderOf(urn(name))).toBe(name),
  );

  it("no URN (an old engine): the stack config", () => {
    expect(explicitProviderOf(undefined)).toBeUndefined();
  });
});
