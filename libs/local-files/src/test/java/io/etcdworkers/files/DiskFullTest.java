package io.etcdworkers.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Which file system a tool's "no space left" is blamed on, when the WAL has one of its own. */
@Timeout(10)
class DiskFullTest {
    private static final Path DATA = Path.of("/scratch/restore-1/verify.etcd");
    private static final Path WAL = Path.of("/wal/restore-1-wal");
    /** etcdctl's first line names both dirs; only the failing line names the one that is full. */
    private static final String START =
            "{\"msg\":\"restoring snapshot\",\"wal-dir\":\"" + WAL + "\",\"data-dir\":\"" + DATA + "\"}";

    @Test
    void theLineThatSaysNoSpaceNamesTheWalDir() {
        String output = START + "\n{\"msg\":\"failed to preallocate an initial WAL file\",\"path\":\"" + WAL
                + ".tmp/0000000000000000-0000000000000000.wal\",\"error\":\"no space left on device\"}\n"
                + "Error: no space left on device";

        assertThat(DiskFull.describe(output, DATA, Optional.of(WAL)))
                .startsWith("the file system holding " + WAL + " is full")
                .doesNotContain(DATA.toString());
    }

    @Test
    void anExcerptJoinedWithBarsIsReadLineByLine() {
        String excerpt =
                START + " | {\"msg\":\"write " + DATA + "/member/snap/db\",\"error\":\"no space left on device\"}";

        assertThat(DiskFull.describe(excerpt, DATA, Optional.of(WAL)))
                .startsWith("the file system holding " + DATA + " is full")
                .doesNotContain(WAL.toString());
    }

    @Test
    void noLineNamingEitherBlamesBothAndWithoutAWalDirTheDataDir() {
        String output = START + "\nError: no space left on device";

        assertThat(DiskFull.describe(output, DATA, Optional.of(WAL)))
                .contains("the file system holding " + DATA, " or ", "the file system holding " + WAL);
        assertThat(DiskFull.describe(output, DATA, Optional.empty()))
                .startsWith("the file system holding " + DATA + " is full");
    }
}
