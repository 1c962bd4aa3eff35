package io.etcdworkers.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(10)
class EtcdVersionTest {

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                // output first line                  | major | minor | patch | no-fsync | etcdutl | etcdctl restores
                "etcd Version: 3.4.23                   | 3 | 4 | 23 | false | false | true",
                "etcd Version: 3.5.17                   | 3 | 5 | 17 | true  | true  | true",
                "etcd Version: 3.5.0                    | 3 | 5 | 0  | true  | true  | true",
                "etcd Version: 3.6.0-rc.1               | 3 | 6 | 0  | true  | true  | false",
                "etcd Version: 3.6.4                    | 3 | 6 | 4  | true  | true  | false",
                "etcd Version: v3.7.1                   | 3 | 7 | 1  | true  | true  | false",
            })
    void parsesFirstLine(
            String line, int major, int minor, int patch, boolean noFsync, boolean etcdutl, boolean etcdctlRestores) {
        String output = line + "\nGit SHA: Not provided (use ./build instead of go build)\nGo Version: go1.19.8\n"
                + "Go OS/Arch: linux/amd64\n";

        EtcdVersion v = EtcdVersion.parse(output);

        assertThat(v).isEqualTo(new EtcdVersion(major, minor, patch));
        assertThat(v.supportsUnsafeNoFsync()).isEqualTo(noFsync);
        assertThat(v.hasEtcdutl()).isEqualTo(etcdutl);
        assertThat(v.etcdctlRestores()).isEqualTo(etcdctlRestores);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "garbage",
                "Go Version: go1.19.8",
                "etcdctl version: 3.4.23\nAPI version: 3.4",
                "etcd Version: three.four",
                "bash: etcd: command not found"
            })
    void rejectsOutputWithoutAnEtcdVersionLine(String output) {
        assertThatThrownBy(() -> EtcdVersion.parse(output))
                .isInstanceOfSatisfying(
                        WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.USAGE))
                .hasMessageContaining("cannot read the etcd version");
    }

    @Test
    void ordersByMajorMinorPatch() {
        assertThat(new EtcdVersion(3, 4, 23)).isLessThan(new EtcdVersion(3, 5, 0));
        assertThat(new EtcdVersion(3, 5, 17)).isLessThan(new EtcdVersion(3, 6, 0));
        assertThat(new EtcdVersion(3, 10, 0)).isGreaterThan(new EtcdVersion(3, 9, 99));
        assertThat(new EtcdVersion(3, 5, 17).toString()).isEqualTo("3.5.17");
    }
}
