// The workflows through the real CLI logged in to S3 (`pulumi login s3://…?endpoint=…`, moto's server):
// team-backend-scenarios.ts says what; scripts/backend-servers.sh starts the server (CI: .ci/run).
import { teamBackendScenarios } from "./team-backend-scenarios";

jest.setTimeout(600_000);

teamBackendScenarios("s3");
