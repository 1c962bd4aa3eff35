package io.etcdworkers.restore.extract.encryption;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;

/**
 * What an encrypted value's prefix {@code k8s:enc:<provider>:<version>:<name>:} says: the provider
 * ({@code aescbc}, {@code aesgcm}, {@code secretbox}, {@code kms}), its format version and the
 * key's name (a KMS provider's name for {@code kms}). Read for messages and counts; a key whose
 * name holds a {@code :} is still matched by its whole prefix ({@link DataKey#prefix()}).
 *
 * @param provider the provider's word
 * @param version {@code v1}, or {@code v2} for KMS v2
 * @param name the key's (or KMS provider's) name
 */
public record StoredPrefix(String provider, String version, String name) implements Comparable<StoredPrefix> {
    private static final byte[] MARK = "k8s:enc:".getBytes(StandardCharsets.US_ASCII);
    private static final int MAX_FIELD = 100;
    private static final Comparator<StoredPrefix> ORDER = Comparator.comparing(StoredPrefix::provider)
            .thenComparing(StoredPrefix::version)
            .thenComparing(StoredPrefix::name);

    /** Whether kube-apiserver encrypted the value (any provider but {@code identity}). */
    public static boolean isEncrypted(byte[] value) {
        return value.length >= MARK.length && Arrays.equals(value, 0, MARK.length, MARK, 0, MARK.length);
    }

    /** The prefix of an {@link #isEncrypted} value; a field that is missing reads {@code ?}. */
    static StoredPrefix of(byte[] value) {
        String[] fields = new String[3];
        int at = MARK.length;
        for (int f = 0; f < fields.length; f++) {
            int end = at;
            while (end < value.length && value[end] != ':' && end - at < MAX_FIELD) {
                end++;
            }
            fields[f] = end < value.length && value[end] == ':' && end > at ? printable(value, at, end) : "?";
            at = end + 1;
        }
        return new StoredPrefix(fields[0], fields[1], fields[2]);
    }

    /** {@code aescbc key "key1"}, {@code kms v2 provider "my-kms"}. */
    public String describe() {
        return provider.equals("kms")
                ? "kms " + version + " provider \"" + name + "\""
                : provider + " key \"" + name + "\"";
    }

    @Override
    public int compareTo(StoredPrefix other) {
        return ORDER.compare(this, other);
    }

    /** The bytes as ASCII, anything else {@code %XX}: they come from a stored value, not from a person. */
    private static String printable(byte[] value, int from, int to) {
        StringBuilder out = new StringBuilder();
        for (int i = from; i < to; i++) {
            int c = value[i] & 0xff;
            if (c > 0x20 && c < 0x7f && c != '%' && c != '"') {
                out.append((char) c);
            } else {
                out.append('%').append(String.format("%02X", c));
            }
        }
        return out.toString();
    }
}
