package io.etcdworkers.testsupport;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The two etcd lines CI tests, by bin dir: 3.4 (Debian's {@code /usr/bin}, or
 * {@code ETCD_3_4_BIN_DIR}) and 3.5 ({@code ETCD_3_5_BIN_DIR}, which {@code .ci/etcd-3.5.sh}
 * fetches; or the system property {@code etcd.3.5.bin.dir}). A test that needs both takes them
 * from here, whatever etcd comes first on PATH.
 */
public final class EtcdVersions {
    private EtcdVersions() {}

    /** etcd 3.4's binaries; fails the test when that dir holds another version. */
    public static EtcdInstall v34() {
        Path dir = Path.of(setting("etcd.3.4.bin.dir", "ETCD_3_4_BIN_DIR").orElse("/usr/bin"));
        EtcdInstall binaries = EtcdInstall.in(dir);
        if (binaries.version().minor() != 4) {
            throw new IllegalStateException(
                    dir + " holds etcd " + binaries.version() + ", not 3.4: set ETCD_3_4_BIN_DIR");
        }
        return binaries;
    }

    /** etcd 3.5's binaries; skips the test (with the reason) when none are configured. */
    public static EtcdInstall v35() {
        Optional<String> dir = setting("etcd.3.5.bin.dir", "ETCD_3_5_BIN_DIR");
        assumeTrue(
                dir.isPresent() && Files.isExecutable(Path.of(dir.get()).resolve("etcd")),
                "needs etcd 3.5: set ETCD_3_5_BIN_DIR (bash .ci/etcd-3.5.sh fetches it; .ci/run always does)");
        EtcdInstall binaries = EtcdInstall.in(Path.of(dir.get()));
        if (binaries.version().minor() != 5) {
            throw new IllegalStateException(dir.get() + " holds etcd " + binaries.version() + ", not 3.5");
        }
        return binaries;
    }

    /**
     * The minor version of the etcd on PATH, the one every other IT runs, and the one this
     * failsafe execution promises ({@code etcd.expected.minor}: 3.4 by default, 3.5 in the
     * {@code etcd-3.5} execution), or an error naming both.
     */
    public static String requireExpectedOnPath() {
        String expected = System.getProperty("etcd.expected.minor");
        if (expected == null || expected.isBlank()) {
            throw new IllegalStateException("system property etcd.expected.minor is not set (failsafe passes it)");
        }
        EtcdInstall onPath = EtcdTestEnvironment.onPath();
        String minor = onPath.version().major() + "." + onPath.version().minor();
        if (!minor.equals(expected)) {
            throw new AssertionError("this test run expects etcd " + expected + " but the etcd on PATH is "
                    + onPath.version() + " at " + onPath.etcd() + " (PATH=" + System.getenv("PATH") + ")");
        }
        return minor;
    }

    private static Optional<String> setting(String property, String env) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            value = System.getenv(env);
        }
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value);
    }
}
