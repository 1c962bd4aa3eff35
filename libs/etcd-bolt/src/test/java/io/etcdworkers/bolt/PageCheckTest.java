package io.etcdworkers.bolt;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files damaged the ways a full snapshot can be damaged before it was hashed: each fault is found
 * and names its page, and every fault of a file is reported, not only the first.
 */
@Timeout(60)
class PageCheckTest {
    private static final int PAGE = 4096;
    private static final int FREELIST = 2;

    @TempDir
    Path tmp;

    private byte[] good;
    /** The pages bucket "big"'s branch root points to, in order. */
    private long[] leaves;

    private int branch;
    /** The root bucket's page, then big's branch root: the path the check names. */
    private String via;

    @BeforeEach
    void writeGoodFile() throws IOException {
        good = BoltCorruptionTest.goodFile(tmp.resolve("good.db"));
        ByteBuffer b = ByteBuffer.wrap(good).order(ByteOrder.LITTLE_ENDIAN);
        branch = (int) bucketRoot(b, "big");
        via = b.getLong(16 + 16) + " > " + branch;
        assertThat(b.getShort(branch * PAGE + 8))
                .as("big's root is a branch page")
                .isEqualTo((short) 1);
        int count = Short.toUnsignedInt(b.getShort(branch * PAGE + 10));
        leaves = new long[count];
        for (int i = 0; i < count; i++) {
            leaves[i] = b.getLong(branch * PAGE + 16 + 16 * i + 8);
        }
        assertThat(leaves.length).isGreaterThan(4);
    }

    @Test
    void aSoundFileHasNoFault() throws IOException {
        assertThat(PageCheck.faults(tmp.resolve("good.db"), PageCheck.ALL)).isEmpty();
    }

    @Test
    void damagedPageTypesAreEachReportedWithTheirPageAndBucket() throws IOException {
        byte[] damaged = good.clone();
        damaged[(int) leaves[1] * PAGE + 8] = 0x20;
        damaged[(int) leaves[3] * PAGE + 8] = 0x08;

        List<String> faults = PageCheck.faults(write("type", damaged), PageCheck.ALL);

        assertThat(faults).hasSize(2);
        assertThat(faults.get(0))
                .startsWith("page " + leaves[1] + " (root bucket/\"big\", via pages " + via + ")")
                .contains("invalid page type 0x20");
        assertThat(faults.get(1)).startsWith("page " + leaves[3] + " ").contains("invalid page type 0x8");
        assertThat(PageCheck.faults(write("type", damaged), PageCheck.FIRST)).containsExactly(faults.get(0));
    }

    @Test
    void anOverflowCountThatCoversTheNextPageIsAFault() throws IOException {
        byte[] damaged = good.clone();
        ByteBuffer.wrap(damaged).order(ByteOrder.LITTLE_ENDIAN).putInt((int) leaves[0] * PAGE + 12, 1);

        List<String> faults = PageCheck.faults(write("overflow", damaged), PageCheck.ALL);

        assertThat(faults).isNotEmpty();
        assertThat(String.join("\n", faults)).contains("page " + (leaves[0] + 1));
    }

    @Test
    void aBranchElementPointingToAFreedPageIsAFault() throws IOException {
        byte[] damaged = good.clone();
        ByteBuffer b = ByteBuffer.wrap(damaged).order(ByteOrder.LITTLE_ENDIAN);
        b.putShort(FREELIST * PAGE + 10, (short) 1);
        b.putLong(FREELIST * PAGE + 16, leaves[2]);

        List<String> faults = PageCheck.faults(write("freed", damaged), PageCheck.ALL);

        assertThat(faults)
                .containsExactly("page " + leaves[2] + " (freelist entry): reachable from a bucket tree and freed");
    }

    @Test
    void aPageReferencedTwiceIsAFaultAndThePageLeftUnreachedIsAnother() throws IOException {
        byte[] damaged = good.clone();
        ByteBuffer.wrap(damaged).order(ByteOrder.LITTLE_ENDIAN).putLong(branch * PAGE + 16 + 16 + 8, leaves[0]);

        List<String> faults = PageCheck.faults(write("twice", damaged), PageCheck.ALL);

        assertThat(String.join("\n", faults))
                .contains("page " + leaves[0] + " (root bucket/\"big\", via pages " + via + "): multiple references")
                .contains("page " + leaves[1] + ": unreachable unfreed");
    }

    @Test
    void aTruncatedFileIsOneFault() throws IOException {
        List<String> faults =
                PageCheck.faults(write("cut", Arrays.copyOf(good, good.length - 2 * PAGE)), PageCheck.ALL);

        assertThat(faults).hasSize(1);
        assertThat(faults.get(0)).contains("truncated");
    }

    private Path write(String name, byte[] content) throws IOException {
        Path file = tmp.resolve(name + ".db");
        Files.write(file, content);
        return file;
    }

    /** The root page of a top-level bucket, read from the root bucket's leaf page. */
    private static long bucketRoot(ByteBuffer b, String name) {
        long root = b.getLong(16 + 16); // meta page 0: root bucket's root pgid
        int page = (int) root * PAGE;
        int count = Short.toUnsignedInt(b.getShort(page + 10));
        for (int i = 0; i < count; i++) {
            int e = page + 16 + 16 * i;
            int pos = b.getInt(e + 4);
            int ksize = b.getInt(e + 8);
            byte[] key = new byte[ksize];
            b.get(e + pos, key);
            if (new String(key, StandardCharsets.US_ASCII).equals(name)) {
                return b.getLong(e + pos + ksize);
            }
        }
        throw new AssertionError("no bucket " + name);
    }
}
