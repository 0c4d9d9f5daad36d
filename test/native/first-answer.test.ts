// compileFirstAnswer (provider/native/server.ts) runs while the startup snapshot is made (main.ts): it must answer
// GetPluginInfo with the plugin's version and leave nothing behind that a snapshot cannot hold (a socket, a server,
// a timer), or the release build aborts.
import { compileFirstAnswer } from "../../provider/native/server";

const handles = (): string[] => process.getActiveResourcesInfo().filter((kind) => kind !== "TTYWrap");

describe("compiling the first answer into the snapshot", () => {
  it("answers GetPluginInfo without a socket and leaves no handle open", async () => {
    const before = handles();
    await expect(compileFirstAnswer()).resolves.toBeUndefined();
    expect(handles()).toEqual(before);
  });
});
