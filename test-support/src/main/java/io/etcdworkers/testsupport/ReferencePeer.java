package io.etcdworkers.testsupport;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/**
 * The reference builds of etcd-backup-restore's {@code etcdbrctl} the interop tests run beside the
 * workers. {@code .ci/run} unpacks them from {@code ../shared/tools/} when that directory is beside
 * the checkout ({@code .ci/reference-peers.sh}) and names them by environment variable; a fresh
 * clone with nothing beside it has none, and the tests that need them are skipped with a message
 * (also in CI: the peers are not part of the checkout). A variable that is set but names no
 * executable file fails the test: the environment promised a peer and does not have it.
 */
public enum ReferencePeer {
    /** v0.23.0: restores with fsync on, embeds etcd 3.4.13. */
    V0_23_0("ETCDBRCTL_V0_23_0"),
    /** v0.40.0 with its no-fsync change (released in v0.43.0): the stand-in for the newest release. */
    V0_40_0("ETCDBRCTL_V0_40_0");

    private final String variable;

    ReferencePeer(String variable) {
        this.variable = variable;
    }

    /** The environment variable that names the binary. */
    public String variable() {
        return variable;
    }

    /** The binary, where the environment names one. */
    public Optional<Path> find() {
        String value = System.getenv(variable);
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        Path binary = Path.of(value);
        if (!Files.isRegularFile(binary) || !Files.isExecutable(binary)) {
            throw new IllegalStateException(variable + "=" + value + " names no executable file");
        }
        return Optional.of(binary);
    }

    /** The binary; the calling test is skipped, saying how to get it, where there is none. */
    public Path require() {
        return find().orElseGet(() -> {
            String message = "no reference etcdbrctl (" + variable + " unset): .ci/run sets it when "
                    + "../shared/tools/ is beside the checkout (.ci/reference-peers.sh)";
            System.err.println("SKIPPED: " + message);
            Assumptions.abort(message);
            throw new AssertionError("unreachable");
        });
    }
}
