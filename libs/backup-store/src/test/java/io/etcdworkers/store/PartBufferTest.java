package io.etcdworkers.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PartBufferTest {
    @Test
    void bytesWrittenInAnyChunksLeaveAsFullPartsThenTheRestInOrder() {
        byte[] data = new byte[1000];
        new Random(1).nextBytes(data);
        PartBuffer part = new PartBuffer(128);
        List<byte[]> sent = new ArrayList<>();
        int[] chunks = {1, 127, 300, 0, 64, 508};
        int off = 0;
        for (int n : chunks) {
            part.write(data, off, n, () -> sent.add(Arrays.copyOf(part.array(), part.size())));
            off += n;
        }

        assertThat(sent).allSatisfy(p -> assertThat(p).hasSize(128));
        // a full part is sent only when more bytes follow: the last one waits for the commit
        assertThat(sent).hasSize(7);
        assertThat(part.size()).isEqualTo(1000 - 7 * 128);
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        sent.forEach(all::writeBytes);
        all.write(part.array(), 0, part.size());
        assertThat(all.toByteArray()).isEqualTo(data);
    }

    @Test
    void aSmallObjectTakesLittleMemoryAndReleaseDropsIt() {
        PartBuffer part = new PartBuffer(64 * 1024 * 1024);
        part.write(new byte[10], 0, 10, () -> {
            throw new AssertionError("not full");
        });

        assertThat(part.array().length).isLessThanOrEqualTo(64 * 1024);
        part.release();
        assertThat(part.size()).isZero();
        assertThat(part.array()).isEmpty();
    }
}
