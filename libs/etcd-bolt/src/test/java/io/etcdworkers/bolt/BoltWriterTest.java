package io.etcdworkers.bolt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** BoltWriter's contract: misuse is refused, deep trees stream, the trailer is what etcd checks. */
class BoltWriterTest {
    @TempDir
    Path tmp;

    @Test
    void noBucketsIsTheSmallestDatabase() throws Exception {
        Path file = tmp.resolve("empty.db");
        try (BoltWriter writer = BoltWriter.create(file, 4096)) {
            assertThat(writer.finish()).isEqualTo(4 * 4096);
        }
        try (BoltReader reader = BoltReader.open(file)) {
            assertThat(reader.bucketNames()).isEmpty();
            assertThat(reader.txid()).isEqualTo(2);
            assertThat(reader.checkPages().unaccounted()).isZero();
        }
    }

    @Test
    void aDeepTreeStreamsAndReadsBack() throws Exception {
        // 512-byte pages and 100k keys: four or more levels of branch pages
        Path file = tmp.resolve("deep.db");
        int n = 100_000;
        try (BoltWriter writer = BoltWriter.create(file, 512)) {
            try (BucketWriter b = writer.bucket(bytes("deep"))) {
                for (int i = 0; i < n; i++) {
                    b.put(ByteBuffer.allocate(8).putLong(i).array(), bytes("v" + i));
                }
                assertThat(b.entries()).isEqualTo(n);
            }
            writer.finish();
        }
        try (BoltReader reader = BoltReader.open(file)) {
            long[] next = {0};
            reader.forEach(bytes("deep"), (k, v, isBucket) -> {
                assertThat(ByteBuffer.wrap(k).getLong()).isEqualTo(next[0]);
                assertThat(v).isEqualTo(bytes("v" + next[0]));
                next[0]++;
            });
            assertThat(next[0]).isEqualTo(n);
            PageUsage usage = reader.checkPages();
            assertThat(usage.unaccounted()).isZero();
            assertThat(usage.treePages() + 3).isEqualTo(reader.highWaterMark());
        }
    }

    @Test
    void branchPagesAreWrittenInGroupsAsEtcdsDefragmentationLeavesThem() throws Exception {
        // 512-byte pages: about 1,000 branch pages on three levels among 10,000 leaves
        Path file = tmp.resolve("grouped.db");
        int pageSize = 512;
        try (BoltWriter writer = BoltWriter.create(file, pageSize)) {
            try (BucketWriter b = writer.bucket(bytes("key"))) {
                for (int i = 0; i < 200_000; i++) {
                    b.put(ByteBuffer.allocate(8).putLong(i).array(), bytes("value-" + i));
                }
            }
            writer.finish();
        }
        byte[] db = Files.readAllBytes(file);
        int branches = 0;
        int runs = 0;
        boolean inRun = false;
        for (int page = 0; (page + 1) * pageSize <= db.length; page++) {
            int flags = ByteBuffer.wrap(db, page * pageSize + 8, 2)
                    .order(ByteOrder.LITTLE_ENDIAN)
                    .getShort();
            boolean branch = flags == 0x01;
            if (branch) {
                branches++;
                runs += inRun ? 0 : 1;
            }
            inRun = branch;
        }
        assertThat(branches).isGreaterThan(4 * TreeBuilder.BRANCH_GROUP);
        // one run per group, and the last (partial) group with the root
        assertThat(runs).isLessThanOrEqualTo(branches / TreeBuilder.BRANCH_GROUP + 1);
        try (BoltReader reader = BoltReader.open(file)) {
            long[] next = {0};
            reader.forEach(bytes("key"), (k, v, isBucket) -> {
                assertThat(ByteBuffer.wrap(k).getLong()).isEqualTo(next[0]);
                next[0]++;
            });
            assertThat(next[0]).isEqualTo(200_000);
            assertThat(reader.checkPages().unaccounted()).isZero();
        }
    }

    @Test
    void misuseIsRefused() throws Exception {
        Path file = tmp.resolve("misuse.db");
        try (BoltWriter writer = BoltWriter.create(file, 4096)) {
            BucketWriter a = writer.bucket(bytes("a"));
            a.put(bytes("k2"), bytes("v"));
            assertThatThrownBy(() -> a.put(bytes("k2"), bytes("v"))).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> a.put(bytes("k1"), bytes("v"))).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> a.put(new byte[0], bytes("v"))).isInstanceOf(IllegalArgumentException.class);
            // unsigned order: 0x80 sorts after 0x7f
            a.put(new byte[] {(byte) 0x80}, bytes("v"));
            assertThatThrownBy(() -> writer.bucket(bytes("b"))).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(writer::finish).isInstanceOf(IllegalStateException.class);
            a.close();
            assertThatThrownBy(() -> writer.bucket(bytes("a"))).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> a.put(bytes("z"), bytes("v"))).isInstanceOf(IllegalStateException.class);
        }
        assertThat(file).as("closed without finish: deleted").doesNotExist();
        Files.writeString(file, "x");
        assertThatThrownBy(() -> BoltWriter.create(file, 4096)).isInstanceOf(FileAlreadyExistsException.class);
        assertThatThrownBy(() -> BoltWriter.create(tmp.resolve("p"), 3000))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void trailerIsTheSha256OfTheDatabaseAndTheReaderIgnoresIt() throws Exception {
        Path file = tmp.resolve("t.db");
        try (BoltWriter writer = BoltWriter.create(file, 4096)) {
            try (BucketWriter b = writer.bucket(bytes("key"))) {
                b.put(bytes("a"), bytes("b"));
            }
            writer.finish();
        }
        byte[] db = Files.readAllBytes(file);
        BoltFiles.appendSha256Trailer(file);
        byte[] all = Files.readAllBytes(file);
        assertThat(all.length % 512).isEqualTo(32);
        assertThat(Arrays.copyOf(all, db.length)).isEqualTo(db);
        assertThat(HexFormat.of().formatHex(all, db.length, all.length))
                .isEqualTo(HexFormat.of()
                        .formatHex(MessageDigest.getInstance("SHA-256").digest(db)));
        try (BoltReader reader = BoltReader.open(file)) {
            assertThat(reader.bucketNames()).containsExactly(bytes("key"));
        }
        assertThatThrownBy(() -> BoltFiles.appendSha256Trailer(file)).isInstanceOf(IllegalArgumentException.class);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
