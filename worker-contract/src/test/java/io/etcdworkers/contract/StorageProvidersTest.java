package io.etcdworkers.contract;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** etcd-druid's {@code StorageProviderFromInfraProvider}, case by case. */
class StorageProvidersTest {

    @ParameterizedTest
    @CsvSource({
        "S3, S3",
        "s3, S3",
        "aws, S3",
        "stackit, S3",
        "ABS, ABS",
        "abs, ABS",
        "azure, ABS",
        "GCS, GCS",
        "gcs, GCS",
        "gcp, GCS",
        "Swift, Swift",
        "swift, Swift",
        "openstack, Swift",
        "OSS, OSS",
        "oss, OSS",
        "alicloud, OSS",
        "ECS, ECS",
        "ecs, ECS",
        "dell, ECS",
        "OCS, OCS",
        "ocs, OCS",
        "openshift, OCS",
        "Local, Local",
        "local, Local"
    })
    void mapsEveryNameEtcdDruidTakes(String spelling, String name) {
        assertThat(StorageProviders.etcdbrctlName(spelling)).contains(name);
    }

    @ParameterizedTest
    @CsvSource({"Azure", "AWS", "SWIFT", "gCS", "' S3'", "minio", "''"})
    void refusesWhatEtcdDruidRefuses(String spelling) {
        assertThat(StorageProviders.etcdbrctlName(spelling)).isEmpty();
    }

    @ParameterizedTest
    @CsvSource({"S3, 'aws,stackit'", "OSS, alicloud", "Local, ''"})
    void namesTheInfrastructureSpellings(String name, String infrastructure) {
        assertThat(String.join(",", StorageProviders.infrastructureNames(name))).isEqualTo(infrastructure);
    }
}
