package io.etcdworkers.restore;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.etcd.EtcdBinaries;
import io.etcdworkers.etcd.EtcdVersion;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What the result says a placed data dir is good for, per etcd version of the tools that made it. */
class PlacedDataDirTest {
    @ParameterizedTest
    @CsvSource({"3.4.23, etcdctl 3.4.23, '3.4,3.5'", "3.5.30, etcdutl 3.5.30, '3.4,3.5'", "3.6.1, etcdutl 3.6.1, '3.6'"
    })
    void namesTheToolTheVerifyingEtcdAndTheVersionsThatStartIt(String version, String writtenBy, String startsWith) {
        EtcdVersion v = EtcdVersion.parse("etcd Version: " + version);
        EtcdBinaries binaries = new EtcdBinaries(
                Path.of("/bin/etcd"),
                Optional.of(Path.of("/bin/etcdctl")),
                v.hasEtcdutl() ? Optional.of(Path.of("/bin/etcdutl")) : Optional.empty(),
                v);

        PlacedDataDir placed = PlacedDataDir.of(binaries);

        assertThat(placed.writtenBy()).isEqualTo(writtenBy);
        assertThat(placed.verifiedBy()).isEqualTo("etcd " + version);
        assertThat(placed.startsWith()).isEqualTo(List.of(startsWith.split(",")));
    }
}
