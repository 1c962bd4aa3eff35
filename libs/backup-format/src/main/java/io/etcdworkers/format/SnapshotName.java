package io.etcdworkers.format;

import io.etcdworkers.format.codec.Compression;
import java.time.Instant;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The name of a snapshot object: {@code <Kind>-<start>-<last>-<unixSeconds><compression><final>}.
 *
 * <p>Revisions are printed zero-padded to at least 8 digits; the compression suffix is kept as
 * written (an unknown one is not a parse error: the object is listed, and refused with a clear
 * error only when it has to be read). See {@code docs/bucket-format.md}.
 *
 * @param kind full or delta
 * @param startRevision first revision (0 for full snapshots)
 * @param lastRevision last revision
 * @param createdAt creation time, whole seconds
 * @param compressionSuffix the suffix as written: {@code ""}, {@code .gz}, {@code .zlib},
 *     {@code .Z}, or something unknown
 * @param isFinal whether the name ends in {@code .final}
 */
public record SnapshotName(
        SnapshotKind kind,
        long startRevision,
        long lastRevision,
        Instant createdAt,
        String compressionSuffix,
        boolean isFinal) {

    private static final String FINAL_SUFFIX = ".final";

    public SnapshotName {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(compressionSuffix, "compressionSuffix");
        if (startRevision < 0 || lastRevision < 0) {
            throw new IllegalArgumentException("negative revision");
        }
        if (startRevision > lastRevision) {
            throw new IllegalArgumentException("start revision " + startRevision + " > last revision " + lastRevision);
        }
        if (createdAt.getNano() != 0) {
            throw new IllegalArgumentException("creation time must be whole seconds: " + createdAt);
        }
    }

    /** A name with a known compression. */
    public static SnapshotName of(
            SnapshotKind kind, long start, long last, Instant createdAt, Compression compression, boolean isFinal) {
        return new SnapshotName(kind, start, last, createdAt, compression.suffix(), isFinal);
    }

    /** The codec for the suffix, or empty when the suffix is unknown. */
    public Optional<Compression> compression() {
        return Compression.fromSuffix(compressionSuffix);
    }

    /** The object name exactly as etcd-backup-restore writes it. */
    public String format() {
        return String.format(
                Locale.ROOT,
                "%s-%08d-%08d-%d%s%s",
                kind.token(),
                startRevision,
                lastRevision,
                createdAt.getEpochSecond(),
                compressionSuffix,
                isFinal ? FINAL_SUFFIX : "");
    }

    /**
     * Parses one object name (no directory part).
     *
     * @return empty when the name is not a snapshot name
     */
    public static Optional<SnapshotName> parse(String name) {
        String[] tokens = name.split("-", -1);
        if (tokens.length != 4) {
            return Optional.empty();
        }
        Optional<SnapshotKind> kind = SnapshotKind.fromToken(tokens[0]);
        Optional<Long> start = parseRevision(tokens[1]);
        Optional<Long> last = parseRevision(tokens[2]);
        if (kind.isEmpty() || start.isEmpty() || last.isEmpty() || start.get() > last.get()) {
            return Optional.empty();
        }
        String tail = tokens[3];
        int digits = 0;
        while (digits < tail.length() && isAsciiDigit(tail.charAt(digits))) {
            digits++;
        }
        if (digits == 0 || digits > 18) {
            return Optional.empty();
        }
        long seconds = Long.parseLong(tail.substring(0, digits));
        String rest = tail.substring(digits);
        boolean isFinal = rest.endsWith(FINAL_SUFFIX);
        if (isFinal) {
            rest = rest.substring(0, rest.length() - FINAL_SUFFIX.length());
        }
        if (!rest.isEmpty() && (rest.charAt(0) != '.' || rest.length() == 1)) {
            return Optional.empty();
        }
        return Optional.of(
                new SnapshotName(kind.get(), start.get(), last.get(), Instant.ofEpochSecond(seconds), rest, isFinal));
    }

    private static Optional<Long> parseRevision(String token) {
        if (token.isEmpty() || token.length() > 19) {
            return Optional.empty();
        }
        for (int i = 0; i < token.length(); i++) {
            if (!isAsciiDigit(token.charAt(i))) {
                return Optional.empty();
            }
        }
        try {
            return Optional.of(Long.parseLong(token));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static boolean isAsciiDigit(char c) {
        return c >= '0' && c <= '9';
    }

    @Override
    public String toString() {
        return format();
    }
}
