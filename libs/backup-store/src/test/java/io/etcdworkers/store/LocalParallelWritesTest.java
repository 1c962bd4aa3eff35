package io.etcdworkers.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writers of one JVM writing side by side into one directory (a copy's parallel uploads): each
 * commits its own object; none takes another's in-flight file for an abandoned one and removes it.
 */
@Timeout(120)
class LocalParallelWritesTest {
    @TempDir
    Path dir;

    @Test
    void parallelWritersInOneDirectoryAllCommit() throws Exception {
        LocalDirectoryStore store = new LocalDirectoryStore(dir);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<ObjectInfo>> writes = new ArrayList<>();
        try {
            for (int i = 0; i < 400; i++) {
                String key = "p/v2/object-" + i;
                writes.add(pool.submit(() -> {
                    try (ObjectWriter writer = store.create(key)) {
                        writer.out().write(key.getBytes(StandardCharsets.UTF_8));
                        return writer.commit();
                    }
                }));
            }
            for (Future<ObjectInfo> write : writes) {
                assertThat(write.get().size()).isPositive();
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(store.list("p/v2/")).hasSize(400);
    }
}
