package io.etcdworkers.rebuild.offline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The digest of the folded keys on its own thread, beside a walk in revision order, on real value files. */
class ExpectedOnTheSideTest {
    @TempDir
    Path dir;

    @Test
    void theDigestBesideTheWriterIsTheOneComputedAlone() throws IOException {
        try (LiveKeys live = new LiveKeys(dir)) {
            Random random = new Random(3);
            for (int i = 0; i < 5000; i++) {
                byte[] value = new byte[random.nextInt(4000)];
                random.nextBytes(value);
                // values still in the spill's write buffer when the walks start: settle() writes them
                live.put(
                        ("/registry/k" + random.nextInt(4000)).getBytes(StandardCharsets.UTF_8),
                        live.store(value),
                        1 + i,
                        1 + i,
                        0,
                        1,
                        0);
            }
            CompactedDatabase.Expected alone = CompactedDatabase.expected(live, 5000);

            ExpectedOnTheSide side = ExpectedOnTheSide.start(live, 5000);
            long[] read = {0};
            live.byRevision(k -> read[0]++);
            CompactedDatabase.Expected beside = side.get();

            assertThat(beside.digest()).isEqualTo(alone.digest());
            assertThat(beside.sums().total()).isEqualTo(alone.sums().total());
            assertThat(beside.bounds().ranges()).isEqualTo(alone.bounds().ranges());
            assertThat(read[0]).isEqualTo(alone.digest().keys()).isEqualTo(live.size());
        }
    }

    @Test
    @Timeout(10)
    void abandonStopsTheDigestAtItsNextKeyAndWaitsForIt() throws IOException {
        AtomicLong visited = new AtomicLong();
        FoldedKeys endless = new Endless(visited, null);
        ExpectedOnTheSide side = ExpectedOnTheSide.start(endless, 1);
        while (visited.get() < 100) {
            Thread.onSpinWait();
        }

        side.abandon();
        long after = visited.get();

        assertThat(visited.get()).as("nothing visited once abandon returned").isEqualTo(after);
    }

    @Test
    void aFailedWalkIsRethrownAsItWas() throws IOException {
        IOException failure = new IOException("value file cut");
        ExpectedOnTheSide side = ExpectedOnTheSide.start(new Endless(new AtomicLong(), failure), 1);

        assertThatThrownBy(side::get).isSameAs(failure);
    }

    /** Keys without end in key order, or a failure at the first. */
    private record Endless(AtomicLong visited, IOException failure) implements FoldedKeys {
        @Override
        public long size() {
            return Long.MAX_VALUE;
        }

        @Override
        public Set<Long> leaseIds() {
            return Set.of();
        }

        @Override
        public void byRevision(Visitor visitor) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void byKey(Visitor visitor) throws IOException {
            if (failure != null) {
                throw failure;
            }
            for (long i = 0; ; i++) {
                visitor.visit(new FoldedKey(
                        String.format("k%019d", i).getBytes(StandardCharsets.US_ASCII), new byte[8], 1, 1, 0, 1, 0));
                visited.incrementAndGet();
            }
        }

        @Override
        public void settle() {}

        @Override
        public void close() {}
    }
}
