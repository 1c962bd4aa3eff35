package io.etcdworkers.rebuild;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScratchSpaceTest {
    @TempDir
    Path dir;

    @Test
    void theRestOfARebuildNeedsThreeTimesTheBasePlusTheWalSegmentUnlessTheWalIsElsewhere() {
        assertThat(ScratchSpace.needAfterBase(166_494_240, false)).isEqualTo(3 * 166_494_240L + 64_000_000);
        assertThat(ScratchSpace.needAfterBase(166_494_240, true)).isEqualTo(3 * 166_494_240L);
        assertThat(ScratchSpace.needAfterBase(0, false)).isEqualTo(64_000_000);
    }

    @Test
    void warnsOnlyWhenTheFileSystemHasLessFreeThanNeeded() throws Exception {
        long free = Files.getFileStore(dir).getUsableSpace();

        assertThat(ScratchSpace.warnIfShort(dir, true, 1_000)).isFalse();
        assertThat(ScratchSpace.warnIfShort(dir, true, free / 3 + 1_000_000)).isTrue();
    }
}
