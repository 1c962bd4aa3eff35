package io.etcdworkers.restore.extract;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * Where a key's files go under the output dir: its {@code /}-separated segments become
 * directories and the last one the file name, so {@code /registry/secrets/ns/name} is {@code
 * registry/secrets/ns/name.value}. A key and a key under it ({@code /a/b} and {@code /a/b/c})
 * never collide: the directory is {@code b}, the file {@code b.value}.
 *
 * <p>A byte outside {@code A-Z a-z 0-9 . _ - ~ : @ + = ,} is written {@code %XX} (so {@code %}
 * itself is {@code %25}); an empty segment ({@code //}) is {@code %}, and {@code .} and {@code ..}
 * are {@code %2E} and {@code %2E%2E}. A segment longer than {@value #MAX_SEGMENT} characters is
 * cut and given a hash, so no name exceeds the 255 bytes file systems allow. {@code index.jsonl}
 * maps every key to its path.
 */
final class KeyPaths {
    static final int MAX_SEGMENT = 200;

    private KeyPaths() {}

    /** The relative path (with {@code /}) of {@code key}'s files, without their suffix. */
    static String of(byte[] key) {
        List<byte[]> segments = split(key);
        StringBuilder path = new StringBuilder();
        for (int i = 0; i < segments.size(); i++) {
            if (i > 0) {
                path.append('/');
            }
            path.append(segment(segments.get(i)));
        }
        return path.toString();
    }

    /** The segments after the leading {@code /} (a key without one has its first segment first). */
    private static List<byte[]> split(byte[] key) {
        List<byte[]> out = new ArrayList<>();
        int start = key.length > 0 && key[0] == '/' ? 1 : 0;
        for (int i = start; i <= key.length; i++) {
            if (i == key.length || key[i] == '/') {
                byte[] s = new byte[i - start];
                System.arraycopy(key, start, s, 0, s.length);
                out.add(s);
                start = i + 1;
            }
        }
        return out;
    }

    private static String segment(byte[] bytes) {
        if (bytes.length == 0) {
            return "%";
        }
        String text = new String(bytes, StandardCharsets.ISO_8859_1);
        if (text.equals(".") || text.equals("..")) {
            return text.replace(".", "%2E");
        }
        StringBuilder out = new StringBuilder();
        for (byte b : bytes) {
            int c = b & 0xff;
            if (c < 0x80 && (Character.isLetterOrDigit(c) || "._-~:@+=,".indexOf(c) >= 0)) {
                out.append((char) c);
            } else {
                out.append('%').append(String.format("%02X", c));
            }
        }
        if (out.length() <= MAX_SEGMENT) {
            return out.toString();
        }
        return out.substring(0, MAX_SEGMENT - 17) + "~" + HexFormat.of().formatHex(sha256(bytes), 0, 8);
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
