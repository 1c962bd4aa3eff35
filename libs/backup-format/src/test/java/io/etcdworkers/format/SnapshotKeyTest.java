package io.etcdworkers.format;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SnapshotKeyTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            v2/Full-00000000-00000601-1795986606                    | snapshot
            v2/Incr-00000602-00001172-1795986609.gz                 | snapshot
            v1/Backup-1518427675/Full-00000000-00030009-1518427675   | snapshot
            v1/Backup-1518427675/Incr-00030010-00030019-1518427680   | snapshot
            v2/Full-00000000-00000601-1795986606/0000000001         | chunk
            v1/Backup-1518427675/Full-00000000-00030009-1518427675/0000000003 | chunk
            v2/notes.txt                                            | invalid
            v2/sub/Full-00000000-00000601-1795986606                | invalid
            v1/Full-00000000-00000601-1795986606                    | invalid
            v3/Full-00000000-00000601-1795986606                    | invalid
            Full-00000000-00000601-1795986606                       | invalid
            v2/Incr-00000700-00000601-1795986606                    | invalid
            """)
    void classifiesRelativeKeys(String relative, String expected) {
        SnapshotKey.Parsed parsed = SnapshotKey.parse("prefix/" + relative, relative);
        String kind = parsed instanceof SnapshotKey.Snapshot
                ? "snapshot"
                : parsed instanceof SnapshotKey.Chunk ? "chunk" : "invalid";
        assertThat(kind).isEqualTo(expected);
    }
}
