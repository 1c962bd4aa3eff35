package io.etcdworkers.rebuild.bump;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.bolt.BoltFiles;
import io.etcdworkers.bolt.BoltFormatException;
import io.etcdworkers.bolt.BoltReader;
import io.etcdworkers.bolt.BoltWriter;
import io.etcdworkers.bolt.BucketWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bump as etcdutl 3.5 writes it ({@code modifyLatestRevision}): the 17-byte key {@code
 * {L+N, 0}} (main big-endian, {@code '_'}, sub big-endian; written out by hand here) with an empty
 * value last in {@code key}, {@code meta/scheduledCompactRev} = the same bytes, everything else
 * as it was.
 */
@Timeout(60)
class BumpWriterTest {
    private static final String L_PLUS_N_HEX = "00000000000003f2" + "5f" + "0000000000000000"; // {1010, 0}

    @TempDir
    Path tmp;

    @Test
    void writesTheBumpedRevisionKeyAndTheScheduledCompactionAndKeepsTheRest() throws IOException {
        Path source = database(
                tmp.resolve("source.db"),
                List.of(rev(5, 0), rev(9, 1), tomb(10, 0)),
                Map.of("consistent_index", hex("0000000000000042"), "finishedCompactRev", rev(5, 0)),
                false);

        RevisionBump bump = BumpWriter.write(source, tmp.resolve("bumped.db"), 1000);

        assertThat(bump).isEqualTo(new RevisionBump(10, 1000));
        assertThat(bump.revision()).isEqualTo(1010);
        Map<String, String> key = entries(tmp.resolve("bumped.db"), "key");
        assertThat(key.keySet()).containsExactly(hexOf(rev(5, 0)), hexOf(rev(9, 1)), hexOf(tomb(10, 0)), L_PLUS_N_HEX);
        assertThat(key.get(L_PLUS_N_HEX)).isEmpty();
        assertThat(key.get(hexOf(rev(9, 1)))).isEqualTo(hexOf(value(rev(9, 1))));
        Map<String, String> meta = entries(tmp.resolve("bumped.db"), "meta");
        assertThat(meta)
                .containsExactly(
                        Map.entry(hexOf(ascii("consistent_index")), "0000000000000042"),
                        Map.entry(hexOf(ascii("finishedCompactRev")), hexOf(rev(5, 0))),
                        Map.entry(hexOf(ascii("scheduledCompactRev")), L_PLUS_N_HEX));
        assertThat(entries(tmp.resolve("bumped.db"), "lease")).isEqualTo(entries(source, "lease"));
        assertThat(entries(tmp.resolve("bumped.db"), "members")).isEqualTo(entries(source, "members"));
        try (BoltReader reader = BoltReader.open(tmp.resolve("bumped.db"))) {
            assertThat(reader.pageSize()).isEqualTo(4096);
            assertThat(reader.checkPages().unaccounted()).isZero();
        }
    }

    @Test
    void replacesAnEarlierScheduledCompactionAndKeepsTheTrailerInPlace() throws IOException {
        Path db = database(
                tmp.resolve("db"),
                List.of(rev(1000, 0)),
                Map.of("scheduledCompactRev", rev(700, 0), "term", hex("01")),
                true);

        RevisionBump bump = BumpWriter.bumpInPlace(db, 10);

        assertThat(bump.revision()).isEqualTo(1010);
        assertThat(entries(db, "meta"))
                .containsExactly(
                        Map.entry(hexOf(ascii("scheduledCompactRev")), L_PLUS_N_HEX),
                        Map.entry(hexOf(ascii("term")), "01"));
        assertThat(Files.size(db) % BoltFiles.SECTOR).isEqualTo(BoltFiles.TRAILER_BYTES);
        byte[] bytes = Files.readAllBytes(db);
        byte[] body = Arrays.copyOf(bytes, bytes.length - 32);
        assertThat(Arrays.copyOfRange(bytes, bytes.length - 32, bytes.length)).isEqualTo(sha256(body));
        try (var files = Files.list(tmp)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("db");
        }
    }

    @Test
    void anEmptyKeyBucketBumpsFromZero() throws IOException {
        Path source = database(tmp.resolve("empty.db"), List.of(), Map.of(), false);

        RevisionBump bump = BumpWriter.write(source, tmp.resolve("bumped.db"), 7);

        assertThat(bump).isEqualTo(new RevisionBump(0, 7));
        assertThat(entries(tmp.resolve("bumped.db"), "key")).containsOnlyKeys(hexOf(rev(7, 0)));
    }

    @Test
    void refusesWhatEtcdCannotHaveWritten() throws IOException {
        Path noMeta = tmp.resolve("nometa.db");
        try (BoltWriter writer = BoltWriter.create(noMeta, 4096)) {
            writer.bucket(ascii("key")).close();
            writer.finish();
        }
        assertThatThrownBy(() -> BumpWriter.write(noMeta, tmp.resolve("a.db"), 1))
                .isInstanceOf(BoltFormatException.class)
                .hasMessageContaining("no bucket meta");

        Path odd = database(tmp.resolve("odd.db"), List.of(ascii("not-a-revision")), Map.of(), false);
        assertThatThrownBy(() -> BumpWriter.write(odd, tmp.resolve("b.db"), 1))
                .isInstanceOf(BoltFormatException.class)
                .hasMessageContaining("is not a revision");
        assertThat(tmp.resolve("b.db")).doesNotExist();

        Path ok = database(tmp.resolve("ok.db"), List.of(rev(3, 0)), Map.of(), false);
        assertThatThrownBy(() -> BumpWriter.write(ok, tmp.resolve("c.db"), 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("positive");
        assertThatThrownBy(() -> new RevisionBump(Long.MAX_VALUE - 1, 2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("overflows");
    }

    /** A database with etcd's buckets: {@code key} (keys as given), {@code lease}, {@code members}, {@code meta}. */
    private static Path database(Path file, List<byte[]> keys, Map<String, byte[]> meta, boolean trailer)
            throws IOException {
        try (BoltWriter writer = BoltWriter.create(file, 4096)) {
            try (BucketWriter key = writer.bucket(ascii("key"))) {
                for (byte[] k : keys) {
                    key.put(k, value(k));
                }
            }
            try (BucketWriter lease = writer.bucket(ascii("lease"))) {
                lease.put(hex("0000000000000001"), ascii("a lease"));
            }
            try (BucketWriter members = writer.bucket(ascii("members"))) {
                members.put(ascii("8e9e05c52164694d"), ascii("{\"id\":1}"));
            }
            try (BucketWriter m = writer.bucket(ascii("meta"))) {
                for (String name : meta.keySet().stream().sorted().toList()) {
                    m.put(ascii(name), meta.get(name));
                }
            }
            writer.finish();
        }
        if (trailer) {
            BoltFiles.appendSha256Trailer(file);
        }
        return file;
    }

    private static byte[] rev(long main, long sub) {
        return hex(String.format("%016x5f%016x", main, sub));
    }

    private static byte[] tomb(long main, long sub) {
        return hex(String.format("%016x5f%016x74", main, sub));
    }

    private static byte[] value(byte[] key) {
        return ("value of " + hexOf(key)).getBytes(StandardCharsets.US_ASCII);
    }

    private static Map<String, String> entries(Path db, String bucket) throws IOException {
        Map<String, String> out = new LinkedHashMap<>();
        try (BoltReader reader = BoltReader.open(db)) {
            reader.forEach(ascii(bucket), (k, v, isBucket) -> out.put(hexOf(k), hexOf(v)));
        }
        return out;
    }

    private static byte[] sha256(byte[] body) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(body);
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s);
    }

    private static String hexOf(byte[] b) {
        return HexFormat.of().formatHex(b);
    }
}
