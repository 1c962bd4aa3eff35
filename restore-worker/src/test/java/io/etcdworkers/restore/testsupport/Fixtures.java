package io.etcdworkers.restore.testsupport;

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

    public static Path root() {
        String dir = System.getProperty("fixtures.dir");
        if (dir == null) {
            throw new IllegalStateException("system property fixtures.dir is not set (run through Maven)");
        }
        Path root = Path.of(dir).resolve("etcdbr-v0.23.0").toAbsolutePath().normalize();
        if (!Files.isDirectory(root)) {
            throw new IllegalStateException("fixtures not found at " + root);
        }
        return root;
    }

    public static Path bucket(String name) {
        return root().resolve(name);
    }

    public static Path expected() {
        return root().resolve("expected");
    }

    /** A writable copy of a fixture bucket under {@code dir}. */
    public static Path copyBucket(String name, Path dir) {
        Path source = bucket(name);
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
