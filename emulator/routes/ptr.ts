/** R12 PUT /r/orders/{order}/ptr;ip=<ip> with a form body `domain_name=<name>` (JSON is accepted too). */
import type { FastifyPluginAsync } from "fastify";
import { setReverseDns } from "../domain/ptr.js";
import { matrixValue } from "../domain/matrix-filters.js";
import { emuError } from "../errors.js";
import { FormBody, unwrapBody } from "../http/body.js";
import { sendRecord } from "../http/send.js";
import type { EmulatorDeps } from "../http/types.js";
import { endpoint } from "./endpoint.js";
import { accountOf, orderOidOf } from "./params.js";

function domainNameOf(body: unknown): string {
  if (body instanceof FormBody) {
    if (body.fields.domain_name === undefined) {
      throw emuError("EMU_ERR_VALIDATION", {
        fieldName: "domain_name",
        message: "Send the form field domain_name (empty to remove the reverse DNS name).",
      });
    }
    return body.fields.domain_name;
  }
  const record = unwrapBody(body, ["domain_name"]) as { domain_name?: unknown } | undefined;
  if (typeof record?.domain_name !== "string") {
    throw emuError("EMU_ERR_VALIDATION", {
      fieldName: "domain_name",
      message:
        "Send domain_name as a form field (application/x-www-form-urlencoded), e.g. domain_name=web1.example.com.",
    });
  }
  return record.domain_name;
}

export const ptrRoutes: FastifyPluginAsync<EmulatorDeps> = async (app, deps) => {
  endpoint(app, "setReverseDns", async (request, reply) => {
    const ip = matrixValue(request.emu.matrix, "ip")?.value || undefined;
    const result = await setReverseDns(
      deps.ctx,
      accountOf(request),
      orderOidOf(request),
      ip,
      domainNameOf(request.body),
    );
    return sendRecord(request, reply, "setReverseDns", result);
  });
};
