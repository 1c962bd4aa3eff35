package io.etcdworkers.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.format.codec.Compression;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class SnapshotNameTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            Full-00000000-00000601-1795986606          | FULL  | 0    | 601      | 1795986606 | ''      | false
            Incr-00000602-00001172-1795986609.gz       | DELTA | 602  | 1172     | 1795986609 | .gz     | false
            Incr-00003645-00003645-1795986617.zlib     | DELTA | 3645 | 3645     | 1795986617 | .zlib   | false
            Incr-00003645-00003645-1795986617.Z        | DELTA | 3645 | 3645     | 1795986617 | .Z      | false
            Full-00000000-00030009-1518427675.gz.final | FULL  | 0    | 30009    | 1518427675 | .gz     | true
            Full-00000000-00030009-1518427675.final    | FULL  | 0    | 30009    | 1518427675 | ''      | true
            Full-00000000-123456789012-1518427675      | FULL  | 0    | 123456789012 | 1518427675 | ''  | false
            Incr-00000001-00000001-0                   | DELTA | 1    | 1        | 0          | ''      | false
            Incr-00000010-00000020-1700000000.bz2      | DELTA | 10   | 20       | 1700000000 | .bz2    | false
            """)
    void parsesEtcdBackupRestoreNames(
            String text, SnapshotKind kind, long start, long last, long seconds, String suffix, boolean isFinal) {
        SnapshotName name = SnapshotName.parse(text).orElseThrow();

        assertThat(name.kind()).isEqualTo(kind);
        assertThat(name.startRevision()).isEqualTo(start);
        assertThat(name.lastRevision()).isEqualTo(last);
        assertThat(name.createdAt()).isEqualTo(Instant.ofEpochSecond(seconds));
        assertThat(name.compressionSuffix()).isEqualTo(suffix);
        assertThat(name.isFinal()).isEqualTo(isFinal);
        assertThat(name.format()).isEqualTo(text);
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(
            strings = {
                "",
                "Full",
                "Full-00000000-00000601",
                "Snap-00000000-00000601-1795986606",
                "Incr-00000700-00000601-1795986606",
                "Incr-0000a700-00000801-1795986606",
                "Incr-00000700-00000801-x1795986606",
                "Incr-00000700-00000801-1795986606gz",
                "Incr-00000700-00000801-1795986606.",
                "Incr-00000700-00000801-1795986606-extra",
                "Incr--00000801-1795986606",
                "Incr-00000700-00000801-",
                "Incr-٣-00000801-1795986606",
                "Incr-99999999999999999999-99999999999999999999-1"
            })
    void rejectsWhatIsNotASnapshotName(String text) {
        assertThat(SnapshotName.parse(text)).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({".gz, GZIP", ".zlib, ZLIB", ".Z, LZW", "'', NONE"})
    void knownSuffixesMapToCodecs(String suffix, Compression codec) {
        SnapshotName name =
                SnapshotName.parse("Incr-00000001-00000002-1700000000" + suffix).orElseThrow();
        assertThat(name.compression()).contains(codec);
    }

    @ParameterizedTest
    @ValueSource(strings = {".bz2", ".gzip", ".z"})
    void unknownSuffixParsesButHasNoCodec(String suffix) {
        SnapshotName name =
                SnapshotName.parse("Incr-00000001-00000002-1700000000" + suffix).orElseThrow();
        assertThat(name.compression()).isEqualTo(Optional.empty());
    }

    @ParameterizedTest
    @CsvSource({"0, 601, 'Full-00000000-00000601-1700000000.gz'", "5, 7, 'Incr-00000005-00000007-1700000000.gz'"})
    void formatsWithPaddingAndSuffix(long start, long last, String expected) {
        SnapshotKind kind = start == 0 ? SnapshotKind.FULL : SnapshotKind.DELTA;
        SnapshotName name =
                SnapshotName.of(kind, start, last, Instant.ofEpochSecond(1700000000L), Compression.GZIP, false);
        assertThat(name.format()).isEqualTo(expected);
    }
}
