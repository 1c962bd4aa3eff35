package io.etcdworkers.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Stream;

/**
 * The real etcd-backup-restore buckets in {@code testdata/} of the repository (system property
 * {@code fixtures.dir}), and copies of them that a test may change.
 */
public final class Fixtures {
    /** The buckets that hold one history in four codecs, plus the compacted one. */
    public static final List<String> BUCKETS = List.of("plain", "gzip", "zlib", "lzw", "compacted");
    /** The four codec buckets (same full snapshot and deltas). */
    public static final List<String> CODEC_BUCKETS = List.of("plain", "gzip", "zlib", "lzw");

    private Fixtures() {}

    /** The fixture written by etcdbrctl v0.23.0 (four codecs and a compacted bucket). */
    public static final String V0_23_0 = "etcdbr-v0.23.0";
    /**
     * The fixture written by etcdbrctl v0.41.2, the version etcd-druid ships: two full snapshots
     * each with its chain, a 2.27 MB transaction, a lease only the deltas name, one revoked.
     */
    public static final String V0_41_2 = "etcdbr-v0.41.2";
    /**
     * Values encrypted at rest as kube-apiserver stores them (aescbc, aesgcm, secretbox; KMS
     * stand-ins), by openssl, Python's cryptography and PyNaCl, with the EncryptionConfiguration that
     * holds their keys: {@code vectors.json}, {@code encryption-configuration.yaml} and {@code .json}.
     */
    public static final String K8S_ENCRYPTION = "k8s-encryption";
    /** The v0.41.2 fixture's lease A: in its second full snapshot's database, alive at the end. */
    public static final long V0_41_2_LEASE_A = 9098012527755163628L;
    /** The v0.41.2 fixture's lease C: granted after the last full snapshot, only the deltas name it. */
    public static final long V0_41_2_LEASE_C = 9098012527755165357L;

    /** The v0.23.0 fixture's folder. */
    public static Path root() {
        return root(V0_23_0);
    }

    /** One fixture's folder under {@code testdata/}; fails when it is missing or outside the checkout. */
    public static Path root(String fixture) {
        String dir = System.getProperty("fixtures.dir");
        if (dir == null) {
            throw new IllegalStateException("system property fixtures.dir is not set (run through Maven)");
        }
        Path root = Path.of(dir).resolve(fixture).toAbsolutePath().normalize();
        if (!Files.isDirectory(root)) {
            throw new IllegalStateException("fixtures not found at " + root);
        }
        return root;
    }

    public static Path bucket(String name) {
        return root().resolve(name);
    }

    /** A bucket of one fixture (the v0.41.2 fixture has one: {@code gzip}). */
    public static Path bucket(String fixture, String name) {
        return root(fixture).resolve(name);
    }

    public static Path expected() {
        return root().resolve("expected");
    }

    public static Path expected(String fixture) {
        return root(fixture).resolve("expected");
    }

    /** A writable copy of a v0.23.0 fixture bucket under {@code dir}. */
    public static Path copyBucket(String name, Path dir) {
        return copyBucket(V0_23_0, name, dir);
    }

    /** A writable copy of a fixture bucket under {@code dir}. */
    public static Path copyBucket(String fixture, String name, Path dir) {
        Path source = bucket(fixture, name);
        Path target = dir.resolve(name);
        try (Stream<Path> files = Files.walk(source)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Path to = target.resolve(source.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(file, to, StandardCopyOption.REPLACE_EXISTING);
                    to.toFile().setWritable(true);
                }
            }
            target.toFile().setWritable(true);
            try (Stream<Path> dirs = Files.walk(target)) {
                dirs.forEach(p -> p.toFile().setWritable(true));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return target;
    }
}
