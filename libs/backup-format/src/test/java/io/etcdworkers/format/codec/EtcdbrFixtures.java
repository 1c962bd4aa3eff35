package io.etcdworkers.format.codec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * The real etcd-backup-restore v0.23.0 buckets under {@code fixtures.dir}, one per codec.
 *
 * <p>Careful: the buckets hold the same object names and events, but each was written by its own
 * snapshotter, so the deltas differ in their {@code "time"} values (and hence in their trailing
 * hash). Only the full snapshot is the same byte for byte in every bucket.
 */
final class EtcdbrFixtures {
    private EtcdbrFixtures() {}

    static Path bucket(String name) {
        String dir = System.getProperty("fixtures.dir");
        if (dir == null) {
            throw new IllegalStateException("system property fixtures.dir is not set (surefire sets it)");
        }
        return Path.of(dir, "etcdbr-v0.23.0", name, "v2");
    }

    /** Names of the objects of the plain bucket; the other buckets add their suffix to them. */
    static List<String> objectNames() {
        try (Stream<Path> files = Files.list(bucket("plain"))) {
            List<String> names =
                    files.map(p -> p.getFileName().toString()).sorted().toList();
            if (names.isEmpty()) {
                throw new IllegalStateException("no objects in " + bucket("plain"));
            }
            return names;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] read(String bucket, String objectName) throws IOException {
        return Files.readAllBytes(bucket(bucket).resolve(objectName));
    }

    /**
     * What must be equal across the buckets: a full snapshot's bytes as they are, a delta's
     * JSON with every time value blanked (the hash trailer is left out: it covers the times).
     * Given as a digest so that a failure does not print megabytes.
     */
    static String comparableContent(String objectName, byte[] content) {
        if (objectName.startsWith("Full-")) {
            return "sha256:" + HexFormat.of().formatHex(sha256(content));
        }
        String json = new String(content, 0, content.length - 32, StandardCharsets.ISO_8859_1);
        String masked = json.replaceAll("\"time\":\"[^\"]*\"", "\"time\":\"\"");
        return "json with times blanked, sha256:"
                + HexFormat.of().formatHex(sha256(masked.getBytes(StandardCharsets.ISO_8859_1)));
    }

    /** Whether the last 32 bytes are the SHA-256 of the bytes before them (both object kinds). */
    static boolean hashTrailerMatches(byte[] content) {
        if (content.length < 32) {
            return false;
        }
        byte[] hash = sha256(Arrays.copyOf(content, content.length - 32));
        return Arrays.equals(hash, Arrays.copyOfRange(content, content.length - 32, content.length));
    }

    private static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
