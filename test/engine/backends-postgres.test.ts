// The workflows through the real CLI logged in to PostgreSQL (`pulumi login postgres://…`):
// team-backend-scenarios.ts says what; scripts/backend-servers.sh starts the server (CI: .ci/run).
import { teamBackendScenarios } from "./team-backend-scenarios";
import { positiveProofScenarios } from "./positive-proof-scenarios";
import { describeOnBackend } from "./team-backends";

jest.setTimeout(600_000);

teamBackendScenarios("postgres");
describeOnBackend("postgres", "ownership by positive proof on a postgres backend", () =>
  positiveProofScenarios("postgres"),
);
