package io.etcdworkers.workercli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Where a Local container is, as each etcdbrctl version finds it. */
class LocalDirectoryTest {
    private final StoreFactory factory = new StoreFactory(Map.of("HOME", "/home/nonroot"), Path.of("/work"));

    private Path dir(String container, boolean underHome) {
        StoreOptions o = new StoreOptions();
        o.container = container;
        o.localUnderHome = underHome;
        return factory.localDirectory(o);
    }

    @Test
    void asAPathLikeEtcdbrctlV023() {
        assertThat(dir("/backups/etcd-main", false)).isEqualTo(Path.of("/backups/etcd-main"));
        assertThat(dir("bucket", false)).isEqualTo(Path.of("/work/bucket"));
    }

    @Test
    void underHomeLikeEtcdbrctlV041EvenWhenAbsolute() {
        // etcd-druid mounts the Local store at /home/nonroot/<container> and passes the container name
        assertThat(dir("etcd-main-bucket", true)).isEqualTo(Path.of("/home/nonroot/etcd-main-bucket"));
        // Go's path.Join("/home/nonroot", "/backups") is /home/nonroot/backups
        assertThat(dir("/backups/etcd-main", true)).isEqualTo(Path.of("/home/nonroot/backups/etcd-main"));
    }
}
