package io.etcdworkers.launcher.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What is read from an Etcd resource beyond the store and the members. */
class DruidEtcdTest {
    private static DruidEtcd etcd(String spec) {
        return DruidEtcd.of(new KubernetesSerialization()
                .unmarshal(
                        "apiVersion: druid.gardener.cloud/v1alpha1\n"
                                + "kind: Etcd\nmetadata: {name: e, namespace: ns}\nspec:\n" + spec,
                        GenericKubernetesResource.class));
    }

    @ParameterizedTest
    @CsvSource({
        "quay.io/coreos/etcd:v3.5.30, 3.5",
        "registry.k8s.io/etcd:3.6.0-0, 3.6",
        "gcr.io/etcd-development/etcd:v3.4.23@sha256:0123, 3.4"
    })
    void anEtcdImageTagGivesTheMinorVersion(String image, String minor) {
        assertThat(etcd("  replicas: 1\n  etcd: {image: \"" + image + "\"}\n").etcdMinorVersion())
                .contains(minor);
    }

    @Test
    void aWrapperImageOrNoImageGivesNoVersion() {
        assertThat(etcd("  replicas: 1\n  etcd: {image: \"europe-docker.pkg.dev/gardener-project/releases/gardener/"
                                + "etcd-wrapper:v0.4.1\"}\n")
                        .etcdMinorVersion())
                .isEmpty();
        assertThat(etcd("  replicas: 1\n  etcd: {}\n").etcdImage()).isEqualTo(Optional.empty());
    }

    @Test
    void aMemberPrefixAndAVolumeClaimTemplateNameTheMembersAndTheirClaims() {
        DruidEtcd e = etcd("  replicas: 2\n  memberNamePrefix: shoot1\n  volumeClaimTemplate: data\n"
                + "  etcd: {serverPort: 2480}\n");
        assertThat(e.members())
                .containsExactly(
                        Map.entry("shoot1-e-0", "http://e-0.e-peer.ns.svc:2480"),
                        Map.entry("shoot1-e-1", "http://e-1.e-peer.ns.svc:2480"));
        assertThat(e.claims()).containsEntry("shoot1-e-0", "data-e-0").containsEntry("shoot1-e-1", "data-e-1");
    }
}
