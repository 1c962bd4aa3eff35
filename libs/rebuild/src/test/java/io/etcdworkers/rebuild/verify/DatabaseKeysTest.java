package io.etcdworkers.rebuild.verify;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.etcd.jetcd.api.KeyValue;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatabaseKeysTest {
    @TempDir
    Path dir;

    @Test
    void readsTheKeyOfAKeyValueWhateverTheFieldsAround() throws Exception {
        byte[] kv = KeyValue.newBuilder()
                .setKey(ByteString.copyFromUtf8("/registry/pods/a"))
                .setCreateRevision(7)
                .setModRevision(9)
                .setVersion(2)
                .setValue(ByteString.copyFrom(new byte[4096]))
                .setLease(5)
                .build()
                .toByteArray();

        assertThat(DatabaseKeys.key(kv)).asString().isEqualTo("/registry/pods/a");
    }

    @Test
    void aFileThatIsNoDatabaseLeavesTheSampleEmptyAndIsNoFailure() throws Exception {
        Path junk = Files.write(dir.resolve("junk.db"), new byte[8192]);
        KeySample sample = new KeySample(16);

        assertThat(DatabaseKeys.sample(junk, sample)).isFalse();
        assertThat(sample.estimatedKeys()).isZero();
    }
}
