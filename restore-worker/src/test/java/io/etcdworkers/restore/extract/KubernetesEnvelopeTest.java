package io.etcdworkers.restore.extract;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class KubernetesEnvelopeTest {
    @Test
    void theTypeIsReadFromTheEnvelopeOfAStoredObject() {
        // k8s\0, field 1 {apiVersion "apps/v1", kind "Deployment"}, field 2 raw bytes
        ByteArrayOutputStream v = new ByteArrayOutputStream();
        v.writeBytes("k8s\0".getBytes(StandardCharsets.ISO_8859_1));
        byte[] apiVersion = "apps/v1".getBytes(StandardCharsets.UTF_8);
        byte[] kind = "Deployment".getBytes(StandardCharsets.UTF_8);
        v.write(0x0a);
        v.write(2 + apiVersion.length + 2 + kind.length);
        v.write(0x0a);
        v.write(apiVersion.length);
        v.writeBytes(apiVersion);
        v.write(0x12);
        v.write(kind.length);
        v.writeBytes(kind);
        v.write(0x12);
        v.write(3);
        v.writeBytes(new byte[] {1, 2, 3});

        assertThat(KubernetesEnvelope.typeOf(v.toByteArray()))
                .contains(new KubernetesEnvelope.TypeMeta("apps/v1", "Deployment"));
    }

    @Test
    void otherValuesAndBrokenEnvelopesHaveNoType() {
        assertThat(KubernetesEnvelope.typeOf("{\"kind\":\"Pod\"}".getBytes(StandardCharsets.UTF_8)))
                .isEmpty();
        assertThat(KubernetesEnvelope.typeOf(new byte[] {'k', '8', 's', 0, 0x0a, 100, 1}))
                .isEmpty();
        assertThat(KubernetesEnvelope.isProtobuf(new byte[] {'k', '8', 's'})).isFalse();
    }
}
