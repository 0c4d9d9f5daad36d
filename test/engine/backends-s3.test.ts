// The workflows through the real CLI logged in to S3 (`pulumi login s3://…?endpoint=…`, moto's server):
// team-backend-scenarios.ts says what; scripts/backend-servers.sh starts the server (CI: .ci/run).
import { teamBackendScenarios } from "./team-backend-scenarios";
import { positiveProofScenarios } from "./positive-proof-scenarios";
import { describeOnBackend } from "./team-backends";

jest.setTimeout(600_000);

teamBackendScenarios("s3");
describeOnBackend("s3", "ownership by positive proof on a s3 backend", () => positiveProofScenarios("s3"));
