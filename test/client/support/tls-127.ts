/**
 * A throwaway self-signed certificate for 127.0.0.1, and its key, for the client tests that need a TLS server on
 * loopback (a handshake that finishes). It protects nothing: it was made once with
 * `openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 36500 -subj /CN=127.0.0.1
 * -addext subjectAltName=IP:127.0.0.1`, and is checked in so that these tests start no process (`npm run
 * test:unit` runs them). Nothing trusts it but a test that adds it to the default CAs for itself.
 */
export const TEST_TLS_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg3twYxlPZTWu8E1Qo
WBLoO/3n1DUP8EKaCPCu/uKtiOihRANCAAQNhP0soT3NSmbtk9uxh4z1ZN/KSIJG
9JDqp8UDm4W7ZuNbqB5SMRgNQQM/o78yGGfEDEL0SdP18xuP7wLRhUei
-----END PRIVATE KEY-----
`;

export const TEST_TLS_CERT = `-----BEGIN CERTIFICATE-----
MIIBjzCCATagAwIBAgIUbQTgWoeqF/HOAM5CNkvuaRGMuxkwCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJMTI3LjAuMC4xMCAXDTI2MTEyOTAwNDYzMloYDzIxMjYxMTA1
MDA0NjMyWjAUMRIwEAYDVQQDDAkxMjcuMC4wLjEwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAAQNhP0soT3NSmbtk9uxh4z1ZN/KSIJG9JDqp8UDm4W7ZuNbqB5SMRgN
QQM/o78yGGfEDEL0SdP18xuP7wLRhUeio2QwYjAdBgNVHQ4EFgQUfub8Rmks42MG
qXJXO18EkpTQ2nEwHwYDVR0jBBgwFoAUfub8Rmks42MGqXJXO18EkpTQ2nEwDwYD
VR0TAQH/BAUwAwEB/zAPBgNVHREECDAGhwR/AAABMAoGCCqGSM49BAMCA0cAMEQC
IEI/5XsA0wwmt81+k4Qb6MtOvSefhfJkVBJtF7k/tob0AiBlqrZcWs6mwWxOGpeK
deD6wOEzZ8wJenLywKIs2pIW8w==
-----END CERTIFICATE-----
`;
