// The dynamic host's progress lines go to stdout in batches, one write per turn of the event loop (each write to
// the engine's pipe wakes its reader: an update of 300 VPSs wrote 600 lines one at a time, docs/benchmarks.md), and
// an engine call answers only once its lines are written, so the engine never stops the host with a line unwritten.
import * as impl from "../../../provider/impl/index";
import { batchedLines } from "../../../provider/impl/engine/log";
import * as testing from "../../../provider/impl/testing";
import { APP_INPUTS, useImplFixture } from "../support/impl-fixture";

const fx = useImplFixture();

describe("the host's lines, written in batches", () => {
  it("the lines of one turn of the event loop are one write, in order; written() resolves after it", async () => {
    const writes: string[] = [];
    const batch = batchedLines((text) => writes.push(text));
    batch.add("a");
    batch.add("b");
    expect(writes).toEqual([]);
    await batch.written();
    expect(writes).toEqual(["a\nb\n"]);
    batch.add("c");
    await batch.written();
    expect(writes).toEqual(["a\nb\n", "c\n"]);
  });

  it("a create answers with its one line written, through the host's own output", async () => {
    const writes: string[] = [];
    const stdout = jest.spyOn(process.stdout, "write").mockImplementation((text: string | Uint8Array) => {
      writes.push(String(text));
      return true;
    });
    try {
      testing.setLogSink(); // the host's own output, not the fixture's collector
      const checked = await impl.check({}, APP_INPUTS);
      const { id } = await impl.create(checked.inputs);
      const lines = writes.join("").split("\n").filter(Boolean);
      expect(lines).toContain(
        `[rimuhosting] Vps ${id}: ordered ${APP_INPUTS.domainName}, billed $10.00 a month.`,
      );
      expect(lines.every((line) => line.startsWith("[rimuhosting] "))).toBe(true);
      // One line for the order and its fee (the batching of several lines is the test above).
      expect(lines).toHaveLength(1);
      expect(writes).toHaveLength(1);
    } finally {
      stdout.mockRestore();
      testing.setLogSink((line) => fx().logs.push(line));
    }
  });
});
