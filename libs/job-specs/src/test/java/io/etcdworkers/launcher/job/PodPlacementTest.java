package io.etcdworkers.launcher.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The toleration syntax as a table, and every placement the launcher refuses with its reason. */
class PodPlacementTest {

    static Stream<Arguments> tolerations() {
        return Stream.of(
                Arguments.of("dedicated=etcd:NoSchedule", toleration("dedicated", "Equal", "etcd", "NoSchedule")),
                Arguments.of("dedicated=etcd", toleration("dedicated", "Equal", "etcd", null)),
                Arguments.of(
                        "node.kubernetes.io/unreachable:NoExecute",
                        toleration("node.kubernetes.io/unreachable", "Exists", null, "NoExecute")),
                Arguments.of("dedicated:Exists", toleration("dedicated", "Exists", null, null)),
                Arguments.of("dedicated", toleration("dedicated", "Exists", null, null)),
                Arguments.of(
                        "dedicated:PreferNoSchedule:Exists",
                        toleration("dedicated", "Exists", null, "PreferNoSchedule")),
                Arguments.of("flavour=:NoSchedule:Equal", toleration("flavour", "Equal", "", "NoSchedule")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("tolerations")
    void tolerationSyntax(String spec, Toleration expected) {
        assertThat(PodPlacement.toleration(spec)).isEqualTo(expected);
    }

    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of(
                        labels("app.kubernetes.io/managed-by", "me"),
                        "label app.kubernetes.io/managed-by is the launcher's own"),
                Arguments.of(
                        labels("app.kubernetes.io/component", "x"),
                        "label app.kubernetes.io/component is the launcher's own"),
                Arguments.of(
                        labels("etcd-workers.io/etcd", "other"), "label etcd-workers.io/etcd is the launcher's own"),
                Arguments.of(
                        labels("etcd-workers.io/member", "m0"), "label etcd-workers.io/member is the launcher's own"),
                Arguments.of(labels("app.kubernetes.io/instance", "x"), "is the launcher's own"),
                Arguments.of(labels("batch.kubernetes.io/job-name", "x"), "set by the Job controller"),
                Arguments.of(labels("job-name", "x"), "set by the Job controller"),
                Arguments.of(labels("team", "has space"), "label team: the value must be at most 63"),
                Arguments.of(labels("Bad_Prefix/x", "y"), "label prefix of Bad_Prefix/x must be a DNS subdomain"),
                Arguments.of(labels("", "y"), "label key must be"),
                Arguments.of(
                        (Supplier<PodPlacement>)
                                () -> new PodPlacement(null, Map.of("a b", "x"), null, null, null, null, false),
                        "annotation key"),
                Arguments.of(
                        (Supplier<PodPlacement>)
                                () -> new PodPlacement(null, null, Map.of("pool", "a/b"), null, null, null, false),
                        "node selector pool"),
                Arguments.of(tolerating("dedicated=etcd:NoSchedul"), "'NoSchedul' is not an effect"),
                Arguments.of(tolerating("dedicated=etcd:Exists"), "Exists takes no value"),
                Arguments.of(tolerating("a:NoSchedule:Equal:x"), "KEY[=VALUE][:EFFECT][:OPERATOR]"),
                Arguments.of(tolerating(":NoSchedule"), "toleration key"),
                Arguments.of(
                        (Supplier<PodPlacement>) () -> new PodPlacement(null, null, null, null, "Urgent!", null, false),
                        "priority class"),
                Arguments.of(
                        (Supplier<PodPlacement>)
                                () -> new PodPlacement(null, null, null, null, null, List.of("Registry_Creds"), false),
                        "image pull secret"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("refused")
    void refusedWithTheReason(Supplier<PodPlacement> make, String message) {
        assertThatThrownBy(make::get)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message);
    }

    @Test
    void gardenersNetworkLabelsGoOnThePodsOnlyAndTheLaunchersLabelsStay() {
        PodPlacement p = new PodPlacement(Map.of("team", "platform"), null, null, null, null, null, true);
        Map<String, String> launcher = JobNames.labels("etcd-main", WorkerKind.COMPACT, "x");
        Map<String, String> object = p.objectLabels(launcher);
        assertThat(object)
                .containsAllEntriesOf(launcher)
                .containsEntry("team", "platform")
                .doesNotContainKey("networking.gardener.cloud/to-dns");
        assertThat(p.podLabels(object))
                .containsAllEntriesOf(object)
                .containsEntry("networking.gardener.cloud/to-dns", "allowed")
                .containsEntry("networking.gardener.cloud/to-private-networks", "allowed")
                .containsEntry("networking.gardener.cloud/to-public-networks", "allowed");
    }

    private static Supplier<PodPlacement> labels(String key, String value) {
        return () -> new PodPlacement(Map.of(key, value), null, null, null, null, null, false);
    }

    private static Supplier<PodPlacement> tolerating(String spec) {
        return () -> new PodPlacement(null, null, null, List.of(spec), null, null, false);
    }

    private static Toleration toleration(String key, String operator, String value, String effect) {
        return new TolerationBuilder()
                .withKey(key)
                .withOperator(operator)
                .withValue(value)
                .withEffect(effect)
                .build();
    }
}
