package io.etcdworkers.rebuild.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.etcdworkers.rebuild.verify.KeyBounds.KeyRange;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeyBoundsTest {
    private static byte[] k(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static ByteString b(String s) {
        return ByteString.copyFromUtf8(s);
    }

    @Test
    void noBoundsIsOneRangeOverEverything() {
        assertThat(KeyBounds.none().ranges()).containsExactly(new KeyRange(KeyRange.FIRST_KEY, KeyRange.TO_END));
    }

    @Test
    void boundsCutTheKeyspaceIntoAdjacentRangesFromTheFirstKeyToTheEnd() {
        List<KeyRange> ranges = KeyBounds.of(List.of(k("/b"), k("/d"), k("/f"))).ranges();

        assertThat(ranges)
                .containsExactly(
                        new KeyRange(KeyRange.FIRST_KEY, b("/b")),
                        new KeyRange(b("/b"), b("/d")),
                        new KeyRange(b("/d"), b("/f")),
                        new KeyRange(b("/f"), KeyRange.TO_END));
    }

    @Test
    void theFirstKeyThereIsIsNoBoundBecauseAsAnEndItWouldMeanToTheEnd() {
        KeyBounds bounds = KeyBounds.of(List.of(new byte[] {0}, k("/a")));

        assertThat(bounds.size()).isEqualTo(1);
        assertThat(bounds.ranges()).first().isEqualTo(new KeyRange(KeyRange.FIRST_KEY, b("/a")));
    }

    @Test
    void boundsOutOfOrderTwiceOrEmptyAreRefused() {
        assertThatThrownBy(() -> KeyBounds.of(List.of(k("/b"), k("/a")))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> KeyBounds.of(List.of(k("/a"), k("/a")))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> KeyBounds.of(List.of(new byte[0]))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void unsignedOrderPutsHighBytesLast() {
        KeyBounds bounds = KeyBounds.of(List.of(k("/a"), new byte[] {'/', (byte) 0xff}));

        assertThat(bounds.size()).isEqualTo(2);
    }

    @Test
    void everyPageStartsARangeAfterAPageOfKeys() {
        KeyBounds.EveryPage pages = new KeyBounds.EveryPage(3, Long.MAX_VALUE);
        for (int i = 0; i < 10; i++) {
            pages.offer(k("/k" + i), 1);
        }

        List<KeyRange> ranges = pages.build().ranges();

        assertThat(ranges).extracting(r -> r.from().toStringUtf8()).containsExactly("\0", "/k3", "/k6", "/k9");
    }

    @Test
    void everyPageAlsoStartsARangeBeforeItsValuesWouldPassTheByteBudget() {
        KeyBounds.EveryPage pages = new KeyBounds.EveryPage(100, 10);
        pages.offer(k("/a"), 4);
        pages.offer(k("/b"), 4);
        pages.offer(k("/c"), 4); // 12 > 10: starts a new range
        pages.offer(k("/d"), 50); // alone over the budget: a range of its own
        pages.offer(k("/e"), 1);

        assertThat(pages.build().ranges())
                .extracting(r -> r.from().toStringUtf8())
                .containsExactly("\0", "/c", "/d", "/e");
    }
}
