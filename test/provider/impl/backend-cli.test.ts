/**
 * A backend's URL as the provider names it (provider/impl/engine/backend-cli.ts): no password, no secret query value,
 * whatever the backend; the rest as it was, so the message still says which backend (issue 83). The workflows on
 * PostgreSQL and S3 look for the servers' real secrets in everything printed (test/engine/backends-*.test.ts).
 */
import {
  backendUrlWithoutCredentials,
  textWithoutUrlCredentials,
} from "../../../provider/impl/engine/backend-cli";

describe("backendUrlWithoutCredentials", () => {
  test.each([
    [
      "postgres://rimu:s3cr%40t@127.0.0.1:5432/rimu?sslmode=disable",
      "postgres://rimu:***@127.0.0.1:5432/rimu?sslmode=disable",
    ],
    [
      "postgres://127.0.0.1/rimu?user=rimu&password=s3cret&table=t",
      "postgres://127.0.0.1/rimu?user=rimu&password=***&table=t",
    ],
    ["postgresql://rimu@db.example.com/state", "postgresql://rimu@db.example.com/state"],
    [
      "s3://state?endpoint=127.0.0.1:9000&disableSSL=true&s3ForcePathStyle=true",
      "s3://state?endpoint=127.0.0.1:9000&disableSSL=true&s3ForcePathStyle=true",
    ],
    [
      "s3://state?awssdk=v2&access_key_id=AKIA1&secret_access_key=abc",
      "s3://state?awssdk=v2&access_key_id=***&secret_access_key=***",
    ],
    ["azblob://state?sas_token=sv%3D2020", "azblob://state?sas_token=***"],
    // The same list the stack identity's hash drops (stack-identity.test.ts).
    [
      "s3://state?region=x&authorization=s3cret&creds=s3cret",
      "s3://state?region=x&authorization=***&creds=***",
    ],
    ["file:///home/me/.pulumi-state", "file:///home/me/.pulumi-state"],
    ["https://api.pulumi.com", "https://api.pulumi.com/"],
    ["postgres://rimu:pw@[broken", "postgres://…"],
    ["not a url", "(a backend URL that could not be read)"],
  ])("%s", (url, shown) => {
    expect(backendUrlWithoutCredentials(url)).toBe(shown);
  });
});

test("every URL a message quotes is masked, whatever follows it", () => {
  expect(
    textWithoutUrlCredentials(
      'error: "postgres://u:pw1@h/db": refused; retry s3://b?secret_access_key=pw2. (file:///srv/x)',
    ),
  ).toBe('error: "postgres://u:***@h/db": refused; retry s3://b?secret_access_key=***. (file:///srv/x)');
});
