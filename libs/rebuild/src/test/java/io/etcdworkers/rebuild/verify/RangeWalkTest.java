package io.etcdworkers.rebuild.verify;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.etcdworkers.rebuild.verify.KeyBounds.KeyRange;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class RangeWalkTest {
    private static final List<KeyRange> RANGES =
            KeyBounds.of(List.of(k("/b"), k("/d"), k("/f"))).ranges();

    private static byte[] k(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static ByteString b(String s) {
        return ByteString.copyFromUtf8(s);
    }

    @Test
    void theWholeKeyspaceKeepsEveryRange() {
        assertThat(RangeWalk.clip(RANGES, KeyRange.FIRST_KEY, KeyRange.TO_END)).isEqualTo(RANGES);
    }

    @Test
    void aPrefixKeepsOnlyTheRangesItOverlapsCutToIt() {
        // the prefix /c: [/c, /d)
        assertThat(RangeWalk.clip(RANGES, b("/c"), b("/d"))).containsExactly(new KeyRange(b("/c"), b("/d")));
        // [/a, /e) spans three ranges
        assertThat(RangeWalk.clip(RANGES, b("/a"), b("/e")))
                .containsExactly(
                        new KeyRange(b("/a"), b("/b")), new KeyRange(b("/b"), b("/d")), new KeyRange(b("/d"), b("/e")));
    }

    @Test
    void aRangeFromABoundToTheEndKeepsOnlyTheLastRanges() {
        assertThat(RangeWalk.clip(RANGES, b("/e"), KeyRange.TO_END))
                .containsExactly(new KeyRange(b("/e"), b("/f")), new KeyRange(b("/f"), KeyRange.TO_END));
    }

    @Test
    void withoutBoundsTheWalkIsTheRangeAskedFor() {
        assertThat(RangeWalk.clip(KeyBounds.none().ranges(), b("/x"), b("/y")))
                .containsExactly(new KeyRange(b("/x"), b("/y")));
    }
}
