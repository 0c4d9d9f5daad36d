// One `up` or `preview`: what the engine does for each resource the program registers (Check, Diff, then
// create / same / update / replace through the provider host), the new state it builds as it goes, and the deletes
// left for the end (resources no longer declared, old halves of create-before-delete replacements).
import * as grpc from "@grpc/grpc-js";
import { ProviderHostError, type PropertyMap, type ProviderHost } from "../helpers/provider-host";
import type { Registration, RegistrationResult } from "./grpc-servers";
import { markSecret, secretKeysOf, unwrapSecrets } from "./property-values";
import type { ResourceState, StackState, StateStore } from "./state-store";
import { deleteResources, newStep, plainOf, runStep, type StepContext } from "./step-runner";
import { decideExistingStep } from "./steps";

const DYNAMIC_PREFIX = "pulumi-nodejs:dynamic";

export interface UpdateRunOptions {
  ctx: StepContext;
  old: StackState;
  store: StateStore;
  provider: () => Promise<ProviderHost>;
  makeUrn: (type: string, name: string, parent: string) => string;
  stackUrn: string;
}

export class UpdateRun {
  /** The stack's outputs as the program registered them. */
  stackOutputs: PropertyMap = {};
  private readonly ctx: StepContext;
  private readonly old: StackState;
  private readonly oldByUrn: Map<string, ResourceState>;
  private readonly registered = new Map<string, ResourceState>();
  private readonly replacedLater: ResourceState[] = [];

  constructor(private readonly o: UpdateRunOptions) {
    this.ctx = o.ctx;
    this.old = o.old;
    this.oldByUrn = new Map(o.old.resources.filter((r) => !r.pendingDelete).map((r) => [r.urn, r]));
  }

  /** Writes the new state: this run's registrations, then what is left of the old state. Never in preview. */
  save(): void {
    if (this.ctx.dryRun) return;
    const remaining = this.old.resources.filter((r) => r.pendingDelete || !this.registered.has(r.urn));
    this.o.store.save({
      ...this.old,
      resources: [...this.registered.values(), ...remaining, ...this.replacedLater],
    });
  }

  registerOutputs(urn: string, outputs: PropertyMap): void {
    if (urn === this.o.stackUrn) this.stackOutputs = outputs;
    const entry = this.registered.get(urn);
    if (entry) entry.outputs = outputs;
    this.save();
  }

  /** `Resource.get`: a read through the provider, not kept in state. */
  async read(r: { type: string; name: string; parent: string; id: string; properties: PropertyMap }) {
    const urn = this.o.makeUrn(r.type, r.name, r.parent);
    const provider = await this.o.provider();
    // Like the engine's ReadStep: the program's properties are passed as both the inputs and the state.
    const props = plainOf(r.properties);
    const read = await provider.read(r.id, urn, props, props);
    this.ctx.steps.push(newStep("read", { urn, id: r.id }));
    return { urn, properties: read.properties };
  }

  /** After a successful program run: delete what it no longer declares and the replaced resources. */
  deleteLeftovers(): Promise<string | undefined> {
    const orphans = this.old.resources.filter((r) => r.pendingDelete || !this.registered.has(r.urn));
    return deleteResources(this.ctx, [...orphans, ...this.replacedLater], this.o.provider, (gone) => {
      this.old.resources = this.old.resources.filter((r) => r !== gone);
      const i = this.replacedLater.indexOf(gone);
      if (i >= 0) this.replacedLater.splice(i, 1);
      this.save();
    });
  }

  async register(r: Registration): Promise<RegistrationResult> {
    const { ctx, registered } = this;
    const urn = this.o.makeUrn(r.type, r.name, r.parent);
    if (registered.has(urn)) throw new Error(`Duplicate resource URN '${urn}'; try giving it a unique name`);
    const prior = this.oldByUrn.get(urn);
    const base = {
      urn,
      type: r.type,
      parent: r.parent,
      dependencies: r.dependencies,
      initErrors: [] as string[],
      additionalSecretOutputs: r.additionalSecretOutputs,
    };
    if (!r.custom) {
      // The Stack and component resources: nothing to call, just track them.
      const entry: ResourceState = {
        ...base,
        custom: false,
        id: "",
        inputs: r.object,
        outputs: prior?.outputs ?? {},
      };
      registered.set(urn, entry);
      await runStep(ctx, newStep(prior ? "same" : "create", entry), async () => undefined);
      this.save();
      return { urn, id: "", object: {} };
    }
    if (!r.type.startsWith(DYNAMIC_PREFIX)) {
      throw new Error(`${r.type}: the engine harness runs only dynamic resources (pulumi-nodejs:dynamic*)`);
    }
    if (r.importId) throw new Error(`${urn}: import is not supported for dynamic resources`);

    // The host reports acceptSecrets=false: strip secrets before calling it and re-mark the outputs after.
    const { plain: inputs, secretKeys: secretInputKeys } = unwrapSecrets(r.object);
    const secretOutputKeys = [...secretInputKeys, ...r.additionalSecretOutputs];
    const provider = await this.o.provider();
    const checked = await provider.check(urn, prior ? plainOf(prior.inputs) : {}, inputs);
    if (checked.failures.length > 0) {
      const why = checked.failures.map((f) => `${f.property}: ${f.reason}`).join("; ");
      ctx.printer.diagnostic("error", `${r.type} resource '${r.name}': invalid inputs: ${why}`, urn);
      throw Object.assign(new Error(`${urn}: Check failed: ${why}`), { code: grpc.status.INVALID_ARGUMENT });
    }
    const news = checked.inputs;
    const entryWith = (id: string, outputs: PropertyMap, initErrors: string[] = []): ResourceState => ({
      ...base,
      custom: true,
      id,
      inputs: markSecret(news, secretInputKeys),
      outputs: markSecret(outputs, secretOutputKeys),
      initErrors,
    });
    const keep = (entry: ResourceState): RegistrationResult => {
      registered.set(urn, entry);
      this.save();
      return { urn, id: entry.id, object: entry.outputs };
    };
    // No provider call in preview: inputs flow through as outputs; the SDK makes every missing output unknown.
    const previewOf = (id: string): RegistrationResult => {
      registered.set(urn, entryWith(id, news));
      return { urn, id, object: markSecret(news, secretOutputKeys) };
    };
    // ErrorResourceInitFailed: the resource exists but is not fully initialized; keep it, with its initErrors.
    const keepInitFailure = (e: unknown): void => {
      if (!(e instanceof ProviderHostError && e.initFailure)) return;
      const f = e.initFailure;
      keep(entryWith(f.id, f.properties, f.reasons.length ? f.reasons : [e.details]));
    };
    const create = async (): Promise<{ id: string; properties: PropertyMap }> => {
      try {
        return await provider.create(urn, news);
      } catch (e) {
        keepInitFailure(e);
        throw e;
      }
    };

    if (!prior) {
      const step = newStep("create", { urn });
      if (ctx.dryRun) {
        await runStep(ctx, step, async () => undefined);
        return previewOf("");
      }
      const made = await runStep(ctx, step, create);
      step.id = made.id;
      return keep(entryWith(made.id, made.properties));
    }

    const diff = await provider.diff(prior.id, urn, plainOf(prior.outputs), news, plainOf(prior.inputs));
    const decision = decideExistingStep(plainOf(prior.inputs), news, diff, {
      initErrors: prior.initErrors,
      deleteBeforeReplaceOption: r.deleteBeforeReplace,
    });
    const step = newStep(decision.op, prior, {
      keys: decision.keys,
      deleteBeforeReplace: decision.op === "replace" ? decision.deleteBeforeReplace : undefined,
    });
    if (decision.op === "same") {
      await runStep(ctx, step, async () => undefined);
      const entry = entryWith(prior.id, plainOf(prior.outputs));
      return keep({ ...entry, outputs: markSecret(entry.outputs, secretKeysOf(prior.outputs)) });
    }
    if (ctx.dryRun) {
      await runStep(ctx, step, async () => undefined);
      return previewOf(decision.op === "replace" ? "" : prior.id);
    }
    if (decision.op === "update") {
      const updated = await runStep(ctx, step, async () => {
        try {
          return await provider.update(prior.id, urn, plainOf(prior.outputs), news, plainOf(prior.inputs));
        } catch (e) {
          if (e instanceof ProviderHostError && e.initFailure) keepInitFailure(e);
          else keep({ ...prior, dependencies: r.dependencies });
          throw e;
        }
      });
      return keep(entryWith(prior.id, updated.properties));
    }
    // replace
    const made = await runStep(ctx, step, async () => {
      if (decision.deleteBeforeReplace) {
        await provider.delete(prior.id, urn, plainOf(prior.outputs), plainOf(prior.inputs));
        this.oldByUrn.delete(urn);
        this.old.resources = this.old.resources.filter((x) => x !== prior);
        this.save();
      }
      const created = await create();
      if (!decision.deleteBeforeReplace) this.replacedLater.push({ ...prior, pendingDelete: true });
      return created;
    });
    step.id = made.id;
    return keep(entryWith(made.id, made.properties));
  }
}
