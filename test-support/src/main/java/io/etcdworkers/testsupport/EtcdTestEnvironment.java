package io.etcdworkers.testsupport;

import java.nio.file.Files;
import java.nio.file.Path;

/** What the etcd ITs need from the machine: the etcd binaries and the shared backup fixtures. */
public final class EtcdTestEnvironment {
    /** The uncompressed full snapshot of the seed phase (600 keys, revisions 2-601), with trailer. */
    public static final String FULL_SNAPSHOT = "etcdbr-v0.23.0/plain/v2/Full-00000000-00000601-1795986606";

    private static EtcdInstall onPath;

    private EtcdTestEnvironment() {}

    /**
     * The etcd on the test JVM's PATH (tests are an entry point; reading it here is fine), found
     * once per JVM. Worker code takes it as {@code EtcdBinaries.locate(Optional.of(onPath().binDir()), "")}.
     */
    public static synchronized EtcdInstall onPath() {
        if (onPath == null) {
            onPath = EtcdInstall.onPath(System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        }
        return onPath;
    }

    /** The fixture full snapshot; fails the test when the fixtures are missing. */
    public static Path fullSnapshot() {
        String dir = System.getProperty("fixtures.dir");
        if (dir == null) {
            throw new IllegalStateException("system property fixtures.dir is not set (surefire/failsafe pass it)");
        }
        Path file = Path.of(dir).resolve(FULL_SNAPSHOT);
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException("fixture missing: " + file);
        }
        return file;
    }
}
