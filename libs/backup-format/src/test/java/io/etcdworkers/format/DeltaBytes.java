package io.etcdworkers.format;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** Builds raw delta contents (JSON plus a trailer) for decoder tests. */
final class DeltaBytes {
    /** The test vector of bucket-format.md section 4 (273 bytes). */
    static final String VECTOR_JSON =
            "[{\"etcdEvent\":{\"kv\":{\"key\":\"L3JlZ2lzdHJ5L2Zvbw==\",\"create_revision\":101,"
                    + "\"mod_revision\":101,\"version\":1,\"value\":\"YmFy\"}},\"time\":\"2024-05-01T10:20:30.123456789Z\"},"
                    + "{\"etcdEvent\":{\"type\":1,\"kv\":{\"key\":\"L3JlZ2lzdHJ5L2Zvbw==\",\"mod_revision\":102}},"
                    + "\"time\":\"2024-05-01T10:20:31.5Z\"}]";

    static final String VECTOR_SHA256 = "ecefba41d6bd0341536619a00258d866447dab45bd39f3f1a700aa335b140443";

    private DeltaBytes() {}

    /** The JSON followed by its correct SHA-256: a delta whose hash verifies. */
    static byte[] withHash(String json) {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(body);
        out.writeBytes(sha256(body));
        return out.toByteArray();
    }

    static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
