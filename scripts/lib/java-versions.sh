# Sourced (not run): the versions of Pulumi's Java pieces, one place for the scripts that build or fetch them
# (java-host.sh, java-maven.sh). scripts/java-host.sh says why these.

# github.com/pulumi/pulumi-java/pkg: the language host's module, the newest release the Go module proxy serves.
JAVA_HOST_VERSION=1.22.0
# com.pulumi:pulumi on Maven Central: the newest release it serves (1.21.0 and 1.22.0 are not there).
JAVA_SDK_VERSION=1.20.0
