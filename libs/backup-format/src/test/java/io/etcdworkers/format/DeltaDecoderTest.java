package io.etcdworkers.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DeltaDecoderTest {

    private static List<RevisionGroup> decode(byte[] content) throws InterruptedException {
        List<RevisionGroup> groups = new ArrayList<>();
        DeltaDecoder.decode("Incr-test", new ByteArrayInputStream(content), groups::add);
        return groups;
    }

    @Test
    void specTestVectorDecodesToExactlyItsTwoEvents() throws Exception {
        byte[] json = DeltaBytes.VECTOR_JSON.getBytes(StandardCharsets.UTF_8);
        assertThat(json).hasSize(273);
        assertThat(HexFormat.of().formatHex(DeltaBytes.sha256(json))).isEqualTo(DeltaBytes.VECTOR_SHA256);

        List<RevisionGroup> groups = decode(DeltaBytes.withHash(DeltaBytes.VECTOR_JSON));

        byte[] key = "/registry/foo".getBytes(StandardCharsets.UTF_8);
        assertThat(groups)
                .containsExactly(
                        new RevisionGroup(
                                101,
                                List.of(DeltaEvent.put(
                                        key,
                                        "bar".getBytes(StandardCharsets.UTF_8),
                                        101,
                                        101,
                                        1,
                                        0,
                                        OffsetDateTime.parse("2024-05-01T10:20:30.123456789Z")))),
                        new RevisionGroup(
                                102,
                                List.of(DeltaEvent.delete(key, 102, OffsetDateTime.parse("2024-05-01T10:20:31.5Z")))));
    }

    @Test
    void summaryCountsEventsRevisionsAndTheLargestGroup() throws Exception {
        DeltaSummary summary =
                DeltaDecoder.verify("Incr-test", new ByteArrayInputStream(DeltaBytes.withHash(DeltaBytes.VECTOR_JSON)));

        assertThat(summary)
                .isEqualTo(new DeltaSummary(
                        2,
                        2,
                        101,
                        102,
                        273,
                        1,
                        16,
                        Optional.of(OffsetDateTime.parse("2024-05-01T10:20:30.123456789Z")),
                        Optional.of(OffsetDateTime.parse("2024-05-01T10:20:31.5Z"))));
    }

    @Test
    void consecutiveEventsOfOneRevisionFormOneGroupInFileOrder() throws Exception {
        String json = "[" + put("a", 5) + "," + del("b", 5) + "," + put("c", 5) + "," + put("a", 6) + "]";

        List<RevisionGroup> groups = decode(DeltaBytes.withHash(json));

        assertThat(groups).extracting(RevisionGroup::revision).containsExactly(5L, 6L);
        assertThat(groups.get(0).events())
                .extracting(e -> new String(e.key(), StandardCharsets.UTF_8))
                .containsExactly("a", "b", "c");
        assertThat(groups.get(0).events().get(1).type()).isEqualTo(EventType.DELETE);
    }

    @Test
    void emptyValueAndLeaseAreRead() throws Exception {
        String json =
                "[{\"etcdEvent\":{\"kv\":{\"key\":\"YQ==\",\"create_revision\":3,\"mod_revision\":3,\"version\":1,"
                        + "\"lease\":4390624984326916637}},\"time\":\"2024-05-01T10:20:30Z\"}]";

        DeltaEvent event = decode(DeltaBytes.withHash(json)).get(0).events().get(0);

        assertThat(event.value()).isEmpty();
        assertThat(event.lease()).isEqualTo(4390624984326916637L);
    }

    @Test
    void flippedByteIsAHashMismatchNamingTheObject() {
        byte[] content = DeltaBytes.withHash(DeltaBytes.VECTOR_JSON);
        content[40] ^= 0x01;

        assertThatThrownBy(() -> decode(content)).isInstanceOfSatisfying(WorkerException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.HASH_MISMATCH);
            assertThat(e.getMessage()).contains("Incr-test", "SHA-256", DeltaBytes.VECTOR_SHA256);
        });
    }

    @Test
    void flippedByteInTheTrailerIsAHashMismatch() {
        byte[] content = DeltaBytes.withHash(DeltaBytes.VECTOR_JSON);
        content[content.length - 1] ^= 0x01;

        assertThatThrownBy(() -> decode(content))
                .isInstanceOfSatisfying(
                        WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.HASH_MISMATCH));
    }

    @Test
    void everyTruncationIsReportedAsTruncatedOrHashMismatchNeverAccepted() {
        byte[] content = DeltaBytes.withHash(DeltaBytes.VECTOR_JSON);
        for (int length = 0; length < content.length; length++) {
            byte[] cut = Arrays.copyOf(content, length);
            assertThatThrownBy(() -> decode(cut))
                    .as("cut at %d", length)
                    .isInstanceOfSatisfying(
                            WorkerException.class,
                            e -> assertThat(e.code()).isIn(ErrorCode.TRUNCATED_OBJECT, ErrorCode.HASH_MISMATCH));
        }
        byte[] cutInJson = Arrays.copyOf(content, 200);
        assertThatThrownBy(() -> decode(cutInJson))
                .isInstanceOfSatisfying(
                        WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.TRUNCATED_OBJECT));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            not an array        | {"etcdEvent":{}}                                                          | expected a JSON array
            array of numbers    | [1,2]                                                                      | expected an event object
            no etcdEvent        | [{"time":"2024-05-01T10:20:30Z"}]                                          | no etcdEvent
            missing kv          | [{"etcdEvent":{"type":1},"time":"2024-05-01T10:20:30Z"}]                   | no kv
            string type         | [{"etcdEvent":{"type":"DELETE","kv":{"key":"YQ==","mod_revision":3}},"time":"2024-05-01T10:20:30Z"}] | type must be the number
            unknown type        | [{"etcdEvent":{"type":2,"kv":{"key":"YQ==","mod_revision":3}},"time":"2024-05-01T10:20:30Z"}] | neither 0
            bad base64          | [{"etcdEvent":{"type":1,"kv":{"key":"!!!","mod_revision":3}},"time":"2024-05-01T10:20:30Z"}] | not valid base64
            no key              | [{"etcdEvent":{"type":1,"kv":{"mod_revision":3}},"time":"2024-05-01T10:20:30Z"}] | no key
            no mod_revision     | [{"etcdEvent":{"type":1,"kv":{"key":"YQ=="}},"time":"2024-05-01T10:20:30Z"}] | no mod_revision
            put without version | [{"etcdEvent":{"kv":{"key":"YQ==","mod_revision":3}},"time":"2024-05-01T10:20:30Z"}] | needs create_revision
            bad time            | [{"etcdEvent":{"type":1,"kv":{"key":"YQ==","mod_revision":3}},"time":"yesterday"}] | not an RFC 3339
            string revision     | [{"etcdEvent":{"type":1,"kv":{"key":"YQ==","mod_revision":"3"}},"time":"2024-05-01T10:20:30Z"}] | must be an integer
            garbage after array | [{"etcdEvent":{"type":1,"kv":{"key":"YQ==","mod_revision":3}},"time":"2024-05-01T10:20:30Z"}] [] | after the end
            invalid JSON        | [{"etcdEvent":{"type":1,,}}]                                               | invalid JSON
            """)
    void contentThatHashesButDoesNotDecodeIsCorrupt(String what, String json, String message) {
        assertThatThrownBy(() -> decode(DeltaBytes.withHash(json))).isInstanceOfSatisfying(WorkerException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.CORRUPT_OBJECT);
            assertThat(e.getMessage()).contains("Incr-test", message);
        });
    }

    @Test
    void revisionsGoingBackwardsAreCorrupt() {
        String json = "[" + put("a", 6) + "," + put("b", 5) + "]";

        assertThatThrownBy(() -> decode(DeltaBytes.withHash(json))).isInstanceOfSatisfying(WorkerException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.CORRUPT_OBJECT);
            assertThat(e.getMessage()).contains("from 6 to 5");
        });
    }

    @Test
    void valuesOfEverySizeDecodeExactlyFromTheParsersOwnText() throws Exception {
        // sizes around the base64 buffer's first 4096 bytes and the parser's 8000-byte input
        // buffer, and far past both; a JSON escape inside the base64 text too
        int[] sizes = {0, 1, 2, 3, 4, 3071, 3072, 3073, 5999, 6000, 6001, 20_000, 100_000, 7};
        Random random = new Random(42);
        List<byte[]> values = new ArrayList<>();
        StringBuilder json = new StringBuilder("[");
        for (int i = 0; i < sizes.length; i++) {
            byte[] value = new byte[sizes[i]];
            random.nextBytes(value);
            values.add(value);
            String b64 = Base64.getEncoder().encodeToString(value);
            if (i == sizes.length - 1) {
                b64 = "\\u00" + Integer.toHexString(b64.charAt(0)) + b64.substring(1);
            }
            json.append(i == 0 ? "" : ",")
                    .append("{\"etcdEvent\":{\"kv\":{\"key\":\"YQ==\",\"create_revision\":1,")
                    .append("\"mod_revision\":")
                    .append(i + 1)
                    .append(",\"version\":")
                    .append(i + 1)
                    .append(",\"value\":\"")
                    .append(b64)
                    .append("\"}},\"time\":\"2024-05-01T10:20:30Z\"}");
        }
        json.append("]");

        List<RevisionGroup> groups = decode(DeltaBytes.withHash(json.toString()));

        assertThat(groups).hasSize(sizes.length);
        for (int i = 0; i < sizes.length; i++) {
            assertThat(groups.get(i).events().get(0).value())
                    .as("value of %d bytes", sizes[i])
                    .isEqualTo(values.get(i));
        }
    }

    @Test
    void aBase64ValueWithACharacterOutsideLatin1IsCorrupt() {
        String json = "[{\"etcdEvent\":{\"kv\":{\"key\":\"YQ==\",\"create_revision\":1,\"mod_revision\":1,"
                + "\"version\":1,\"value\":\"ZG\u0100=\"}},\"time\":\"2024-05-01T10:20:30Z\"}]";

        assertThatThrownBy(() -> decode(DeltaBytes.withHash(json))).isInstanceOfSatisfying(WorkerException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.CORRUPT_OBJECT);
            assertThat(e.getMessage()).contains("kv.value is not valid base64");
        });
    }

    @Test
    void emptyArrayIsValid() throws Exception {
        assertThat(decode(DeltaBytes.withHash("[]"))).isEmpty();
    }

    static String put(String key, long revision) {
        String b64 = Base64.getEncoder().encodeToString(key.getBytes(StandardCharsets.UTF_8));
        return "{\"etcdEvent\":{\"kv\":{\"key\":\"" + b64 + "\",\"create_revision\":" + revision + ",\"mod_revision\":"
                + revision + ",\"version\":1,\"value\":\"dg==\"}},\"time\":\"2024-05-01T10:20:30Z\"}";
    }

    static String del(String key, long revision) {
        String b64 = Base64.getEncoder().encodeToString(key.getBytes(StandardCharsets.UTF_8));
        return "{\"etcdEvent\":{\"type\":1,\"kv\":{\"key\":\"" + b64 + "\",\"mod_revision\":" + revision
                + "}},\"time\":\"2024-05-01T10:20:30Z\"}";
    }
}
