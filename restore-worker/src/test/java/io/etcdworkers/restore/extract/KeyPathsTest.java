package io.etcdworkers.restore.extract;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.rebuild.engine.KeyPrefix;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class KeyPathsTest {
    private static String path(String key) {
        return KeyPaths.of(key.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void segmentsBecomeDirectoriesAndUnsafeBytesAreEscaped() {
        assertThat(path("/registry/secrets/ns/name")).isEqualTo("registry/secrets/ns/name");
        assertThat(path("relative/key")).isEqualTo("relative/key");
        assertThat(path("/a//b/")).isEqualTo("a/%/b/%");
        assertThat(path("/a/../b/.")).isEqualTo("a/%2E%2E/b/%2E");
        assertThat(path("/a b/100%/ü")).isEqualTo("a%20b/100%25/%C3%BC");
        assertThat(KeyPaths.of(new byte[] {'/', 0, (byte) 0xff})).isEqualTo("%00%FF");
    }

    @Test
    void aLongSegmentIsCutWithAHashSoTwoLongKeysStayApart() {
        String a = path("/x/" + "a".repeat(300) + "1");
        String b = path("/x/" + "a".repeat(300) + "2");
        assertThat(a.length() - 2).isEqualTo(KeyPaths.MAX_SEGMENT);
        assertThat(a).isNotEqualTo(b).startsWith("x/aaa");
    }

    @Test
    void aPrefixRangeEndsAfterItsLastKey() {
        assertThat(KeyPrefix.of("/a/").rangeEnd()).isEqualTo("/a0".getBytes(StandardCharsets.UTF_8));
        assertThat(KeyPrefix.of("/a/").matches("/a/b".getBytes(StandardCharsets.UTF_8)))
                .isTrue();
        assertThat(KeyPrefix.of("/a/").matches("/a".getBytes(StandardCharsets.UTF_8)))
                .isFalse();
        assertThat(KeyPrefix.ALL.rangeEnd()).isEqualTo(new byte[] {0});
    }
}
