package io.etcdworkers.bolt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.testsupport.seeded.SeededCase;
import io.etcdworkers.testsupport.seeded.SeededTest;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Unsound files are BoltFormatExceptions: never an index error, never an endless walk. */
@Timeout(60)
class BoltCorruptionTest {
    private static final int PAGE = 4096;
    private static final int ENTRIES = 3000;

    @TempDir
    Path tmp;

    private byte[] good;

    @BeforeEach
    void writeGoodFile() throws IOException {
        good = goodFile(tmp.resolve("good.db"));
    }

    /** Bucket "big": 3000 entries under a branch root; bucket "small": 3 entries. */
    static byte[] goodFile(Path file) throws IOException {
        try (BoltWriter writer = BoltWriter.create(file, PAGE)) {
            try (BucketWriter b = writer.bucket(bytes("big"))) {
                for (int i = 0; i < ENTRIES; i++) {
                    b.put(bytes(String.format("key-%06d", i)), new byte[100]);
                }
            }
            try (BucketWriter b = writer.bucket(bytes("small"))) {
                b.put(bytes("a"), bytes("1"));
                b.put(bytes("b"), bytes("2"));
                b.put(bytes("c"), bytes("3"));
            }
            writer.finish();
        }
        return Files.readAllBytes(file);
    }

    @Test
    void truncatedFilesAreRefused() throws IOException {
        for (int length : new int[] {0, 10, 80, PAGE, good.length / 2, good.length - PAGE, good.length - 1}) {
            Path cut = write("cut-" + length, Arrays.copyOf(good, length));
            assertThatThrownBy(() -> readAll(cut)).as("length %d", length).isInstanceOf(BoltFormatException.class);
        }
        assertThatThrownBy(() -> readAll(write("cut", Arrays.copyOf(good, good.length / 2))))
                .hasMessageContaining("truncated");
    }

    @Test
    void aFlippedMetaByteFallsBackToTheOtherMeta() throws IOException {
        byte[] flipped0 = good.clone();
        flipped0[16 + 40] ^= 1; // page 0 (txid 2): high-water mark, covered by the checksum
        try (BoltReader reader = BoltReader.open(write("m0", flipped0))) {
            assertThat(reader.txid()).isEqualTo(1);
            assertThat(count(reader, "big")).isEqualTo(ENTRIES);
        }
        byte[] flipped1 = good.clone();
        flipped1[PAGE + 16 + 3] ^= 0x10; // page 1: magic
        try (BoltReader reader = BoltReader.open(write("m1", flipped1))) {
            assertThat(reader.txid()).isEqualTo(2);
            assertThat(count(reader, "big")).isEqualTo(ENTRIES);
        }
        byte[] both = flipped0.clone();
        both[PAGE + 16 + 3] ^= 0x10;
        assertThatThrownBy(() -> readAll(write("both", both)))
                .isInstanceOf(BoltFormatException.class)
                .hasMessageContaining("not a bbolt database")
                .hasMessageContaining("checksum");
    }

    @Test
    void aBranchPointerBeyondTheHighWaterMarkIsRefused() throws IOException {
        byte[] bad = good.clone();
        ByteBuffer b = ByteBuffer.wrap(bad).order(ByteOrder.LITTLE_ENDIAN);
        int branch = bigRootPage(b);
        assertThat(b.getShort(branch * PAGE + 8)).isEqualTo((short) PageHeader.BRANCH);
        long hwm = b.getLong(16 + 40);
        b.putLong(branch * PAGE + 16 + 16 + 8, hwm + 5); // second element's pgid
        assertThatThrownBy(() -> readAll(write("beyond", bad)))
                .isInstanceOf(BoltFormatException.class)
                .hasMessageContaining("outside the pages in use");
    }

    @Test
    void aCycleOrASharedPageIsRefused() throws IOException {
        byte[] cycle = good.clone();
        ByteBuffer b = ByteBuffer.wrap(cycle).order(ByteOrder.LITTLE_ENDIAN);
        int branch = bigRootPage(b);
        b.putLong(branch * PAGE + 16 + 8, branch); // first child: the branch itself
        assertThatThrownBy(() -> readAll(write("cycle", cycle)))
                .isInstanceOf(BoltFormatException.class)
                .hasMessageContaining("reached twice");

        byte[] shared = good.clone();
        ByteBuffer s = ByteBuffer.wrap(shared).order(ByteOrder.LITTLE_ENDIAN);
        s.putLong(branch * PAGE + 16 + 16 + 8, s.getLong(branch * PAGE + 16 + 8)); // 2nd child = 1st child
        assertThatThrownBy(() -> readAll(write("shared", shared))).isInstanceOf(BoltFormatException.class);
    }

    @Test
    void keysOutOfOrderAndElementsOutsideTheirPageAreRefused() throws IOException {
        ByteBuffer g = ByteBuffer.wrap(good).order(ByteOrder.LITTLE_ENDIAN);
        int branch = bigRootPage(g);
        int leaf = (int) g.getLong(branch * PAGE + 16 + 8);

        byte[] order = good.clone();
        ByteBuffer o = ByteBuffer.wrap(order).order(ByteOrder.LITTLE_ENDIAN);
        int e1 = leaf * PAGE + 16 + 16; // second leaf element
        order[e1 + o.getInt(e1 + 4)] = 0; // its key now sorts before the first
        assertThatThrownBy(() -> readAll(write("order", order)))
                .isInstanceOf(BoltFormatException.class)
                .hasMessageContaining("not ascending");

        byte[] outside = good.clone();
        ByteBuffer x = ByteBuffer.wrap(outside).order(ByteOrder.LITTLE_ENDIAN);
        x.putInt(leaf * PAGE + 16 + 4, 0x7fff_fff0); // pos of the first element
        assertThatThrownBy(() -> readAll(write("outside", outside)))
                .isInstanceOf(BoltFormatException.class)
                .hasMessageContaining("outside the page");

        byte[] count = good.clone();
        ByteBuffer c = ByteBuffer.wrap(count).order(ByteOrder.LITTLE_ENDIAN);
        c.putShort(leaf * PAGE + 10, (short) 0xfff0);
        assertThatThrownBy(() -> readAll(write("count", count))).isInstanceOf(BoltFormatException.class);

        byte[] id = good.clone();
        ByteBuffer i = ByteBuffer.wrap(id).order(ByteOrder.LITTLE_ENDIAN);
        i.putLong(leaf * PAGE, leaf + 1);
        assertThatThrownBy(() -> readAll(write("id", id)))
                .isInstanceOf(BoltFormatException.class)
                .hasMessageContaining("header says");

        byte[] flags = good.clone();
        ByteBuffer f = ByteBuffer.wrap(flags).order(ByteOrder.LITTLE_ENDIAN);
        f.putShort(leaf * PAGE + 8, (short) PageHeader.FREELIST);
        assertThatThrownBy(() -> readAll(write("flags", flags)))
                .isInstanceOf(BoltFormatException.class)
                .hasMessageContaining("flags");
    }

    @SeededTest(tries = 300)
    void randomDamageIsReadOrRefusedNeverACrash(SeededCase c) throws IOException {
        readOrRefused(damaged(c.random(), c.intBetween(1, 40)));
    }

    /** One flipped bit and the most the random damage flips, each at a few places. */
    @ParameterizedTest(name = "{0} flips")
    @ValueSource(ints = {1, 40})
    void theFewestAndTheMostFlipsAreReadOrRefused(int flips) throws IOException {
        for (long seed = 0; seed < 10; seed++) {
            readOrRefused(damaged(new Random(seed), flips));
        }
    }

    private Path damaged(Random random, int flips) throws IOException {
        byte[] bad = good.clone();
        for (int n = 0; n < flips; n++) {
            // mostly headers and element arrays, where damage matters
            int page = random.nextInt(bad.length / PAGE);
            int offset = random.nextInt(4) == 0 ? random.nextInt(PAGE) : random.nextInt(96);
            bad[page * PAGE + offset] ^= (byte) (1 << random.nextInt(8));
        }
        return write("bad", bad);
    }

    /** Read back whole or refused as unsound; anything else (an index error, a hang) fails. */
    private static void readOrRefused(Path file) throws IOException {
        try {
            readAll(file);
        } catch (BoltFormatException expected) {
            // refused: fine
        }
    }

    /** Everything a consumer would do with a file. */
    private static void readAll(Path file) throws IOException {
        try (BoltReader reader = BoltReader.open(file)) {
            for (byte[] name : reader.bucketNames()) {
                if (reader.hasBucket(name)) {
                    reader.forEach(List.of(name), (k, v, isBucket) -> {});
                }
            }
            reader.checkPages();
        }
    }

    private static long count(BoltReader reader, String bucket) throws IOException {
        long[] n = {0};
        reader.forEach(bytes(bucket), (k, v, b) -> n[0]++);
        return n[0];
    }

    /** The root page of bucket "big": the first element of the root bucket's leaf. */
    private static int bigRootPage(ByteBuffer file) {
        int rootBucketPage = (int) file.getLong(16 + 16);
        int e0 = rootBucketPage * PAGE + 16;
        int valueAt = e0 + file.getInt(e0 + 4) + file.getInt(e0 + 8);
        return (int) file.getLong(valueAt);
    }

    private Path write(String name, byte[] content) throws IOException {
        return Files.write(tmp.resolve(name + ".db"), content);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
